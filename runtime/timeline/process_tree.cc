#include "runtime/timeline/process_tree.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include <dirent.h>

namespace dsched::timeline {
namespace {

bool read_text(const std::string& path, std::string& text) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  std::ostringstream buffer;
  buffer << file.rdbuf();
  text = buffer.str();
  return true;
}

// Numeric entries of a directory (pids under /proc, tids under task/).
std::vector<int> numeric_entries(const std::string& path) {
  std::vector<int> ids;
  DIR* dir = opendir(path.c_str());
  if (!dir) return ids;
  while (dirent* entry = readdir(dir)) {
    char* end = nullptr;
    long id = std::strtol(entry->d_name, &end, 10);
    if (*entry->d_name && !*end && id > 0) ids.push_back(static_cast<int>(id));
  }
  closedir(dir);
  return ids;
}

// From /proc/<pid>/stat: the name between the parentheses and the parent pid after the state.
bool parse_stat(const std::string& stat, std::string& comm, int& ppid) {
  size_t open = stat.find('(');
  size_t close = stat.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  comm = stat.substr(open + 1, close - open - 1);
  std::istringstream rest(stat.substr(close + 1));
  std::string state;
  return static_cast<bool>(rest >> state >> ppid);
}

void add_process(perfetto::protos::ProcessTree& tree, const std::string& proc_root, int pid) {
  std::string dir = proc_root + "/" + std::to_string(pid);
  std::string stat, cmdline;
  std::string comm;
  int ppid = 0;
  if (!read_text(dir + "/stat", stat) || !parse_stat(stat, comm, ppid)) return;
  read_text(dir + "/cmdline", cmdline);
  auto& process = *tree.add_processes();
  process.set_pid(pid);
  process.set_ppid(ppid);
  if (cmdline.empty()) {
    // Kernel threads and zombies have no command line: their name stands in.
    process.add_cmdline(comm);
    process.set_cmdline_is_comm(true);
  } else {
    if (cmdline.back() == '\0') cmdline.pop_back();
    std::istringstream args(cmdline);
    for (std::string arg; std::getline(args, arg, '\0');) process.add_cmdline(arg);
  }
  for (int tid : numeric_entries(dir + "/task")) {
    std::string name;
    if (!read_text(dir + "/task/" + std::to_string(tid) + "/comm", name)) continue;
    if (!name.empty() && name.back() == '\n') name.pop_back();
    auto& thread = *tree.add_threads();
    thread.set_tid(tid);
    thread.set_tgid(pid);
    thread.set_name(name);
  }
}

}  // namespace

perfetto::protos::ProcessTree scan_processes(const std::string& proc_root) {
  perfetto::protos::ProcessTree tree;
  for (int pid : numeric_entries(proc_root)) add_process(tree, proc_root, pid);
  return tree;
}

perfetto::protos::ProcessTree new_task_tree(const dstl_newtask& record) {
  perfetto::protos::ProcessTree tree;
  std::string comm(record.comm, strnlen(record.comm, sizeof record.comm));
  if (record.pid == record.tgid) {
    auto& process = *tree.add_processes();
    process.set_pid(record.pid);
    process.set_ppid(record.ppid);
    process.add_cmdline(comm);
    process.set_cmdline_is_comm(true);
  }
  auto& thread = *tree.add_threads();
  thread.set_tid(record.pid);
  thread.set_tgid(record.tgid);
  thread.set_name(comm);
  return tree;
}

}  // namespace dsched::timeline
