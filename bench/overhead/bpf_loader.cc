// bpf_loader [--only PROG[,PROG...]] [--period-ns N] OBJECT
// Loads a hand-written BPF object and attaches its programs: tp_btf programs to their tracepoints,
// perf_event programs to a cpu-clock event with period N ns on every CPU (as dsched attaches
// profile-N). Prints "ready" once attached, runs until SIGINT or SIGTERM, then prints for each
// per-CPU map its keys and the sum of all its 64-bit words over keys and CPUs (for counts and
// histograms: the number of events aggregated), so a run can be checked against dsched's output.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <linux/perf_event.h>
#include <set>
#include <sstream>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace {

struct Options {
  std::set<std::string> only;
  unsigned long long period_ns = 1000000000ull / 997;
  const char* object = nullptr;
};

bool parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--only" && i + 1 < argc) {
      std::stringstream names(argv[++i]);
      for (std::string name; std::getline(names, name, ',');) options.only.insert(name);
    } else if (arg == "--period-ns" && i + 1 < argc) {
      options.period_ns = std::stoull(argv[++i]);
    } else if (arg[0] != '-' && !options.object) {
      options.object = argv[i];
    } else {
      return false;
    }
  }
  return options.object != nullptr && options.period_ns > 0;
}

bool attach_timer(bpf_program* program, unsigned long long period_ns, std::vector<bpf_link*>& links) {
  int cpus = libbpf_num_possible_cpus();
  for (int cpu = 0; cpu < cpus; ++cpu) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = period_ns;
    int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0 && errno == ENODEV) continue;  // CPU not online
    if (fd < 0) {
      std::fprintf(stderr, "bpf_loader: perf_event_open on CPU %d: %s\n", cpu, std::strerror(errno));
      return false;
    }
    bpf_link* link = bpf_program__attach_perf_event(program, fd);
    if (!link) {
      std::fprintf(stderr, "bpf_loader: attach %s: %s\n", bpf_program__name(program), std::strerror(errno));
      close(fd);
      return false;
    }
    links.push_back(link);
  }
  return true;
}

void print_percpu_map(bpf_map* map) {
  int cpus = libbpf_num_possible_cpus();
  size_t words = bpf_map__value_size(map) / 8;
  std::vector<unsigned long long> values(words * static_cast<size_t>(cpus));
  std::vector<char> key(bpf_map__key_size(map)), next(key.size());
  unsigned long long keys = 0, total = 0;
  for (void* previous = nullptr; bpf_map__get_next_key(map, previous, next.data(), next.size()) == 0;
       previous = key.data()) {
    key = next;
    if (bpf_map__lookup_elem(map, key.data(), key.size(), values.data(), values.size() * 8, 0) != 0) continue;
    ++keys;
    for (unsigned long long v : values) total += v;
  }
  std::printf("%s: %llu keys, %llu events\n", bpf_map__name(map), keys, total);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, options)) {
    std::fprintf(stderr, "usage: bpf_loader [--only PROG[,PROG...]] [--period-ns N] OBJECT\n");
    return 2;
  }
  bpf_object* object = bpf_object__open_file(options.object, nullptr);
  if (!object) {
    std::fprintf(stderr, "bpf_loader: cannot open %s: %s\n", options.object, std::strerror(errno));
    return 1;
  }
  bpf_program* program;
  size_t selected = 0;
  bpf_object__for_each_program(program, object) {
    bool wanted = options.only.empty() || options.only.count(bpf_program__name(program));
    bpf_program__set_autoload(program, wanted);
    selected += wanted;
  }
  if (selected == 0 || (!options.only.empty() && selected != options.only.size())) {
    std::fprintf(stderr, "bpf_loader: %s lacks some programs named by --only\n", options.object);
    return 1;
  }
  if (bpf_object__load(object) != 0) {
    std::fprintf(stderr, "bpf_loader: cannot load %s: %s\n", options.object, std::strerror(errno));
    return 1;
  }
  std::vector<bpf_link*> links;
  bool attached = true;
  bpf_object__for_each_program(program, object) {
    if (!bpf_program__autoload(program) || !attached) continue;
    if (bpf_program__type(program) == BPF_PROG_TYPE_PERF_EVENT) {
      attached = attach_timer(program, options.period_ns, links);
    } else if (bpf_link* link = bpf_program__attach(program)) {
      links.push_back(link);
    } else {
      std::fprintf(stderr, "bpf_loader: attach %s: %s\n", bpf_program__name(program), std::strerror(errno));
      attached = false;
    }
  }
  if (attached) {
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop_signals, nullptr);
    std::printf("ready\n");
    std::fflush(stdout);
    int signo;
    sigwait(&stop_signals, &signo);
    for (bpf_link* link : links) bpf_link__destroy(link);
    links.clear();
    bpf_map* map;
    bpf_object__for_each_map(map, object) {
      if (bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_HASH) print_percpu_map(map);
    }
  }
  for (bpf_link* link : links) bpf_link__destroy(link);
  bpf_object__close(object);
  return attached ? 0 : 1;
}
