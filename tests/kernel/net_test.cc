// The ip, tcp and udp providers against traffic the test makes over the loopback interface, on
// ports it chose: a TCP connection opened, used for a known number of bytes and closed, a connect to
// a port nobody listens on, and UDP datagrams of a known size over IPv4 and IPv6. Each script
// filters on the test's ports, so other traffic on the machine does not disturb the counts.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "aggregation_text.h"
#include "traced_window.h"

using namespace dsched::test;

namespace {

constexpr int kDataBytes = 1000;
constexpr int kTcpHeaderBytes = 32;  // with the timestamps option Linux puts on every segment
constexpr int kDatagrams = 5;
constexpr int kDatagramBytes = 300;
constexpr int kUdpHeaderBytes = 8;

// A socket bound to a free port of the loopback address (IPv4, or IPv6 when `v6`). Close on exec:
// dsched and its command, started after, must not hold it open.
struct Bound {
  int fd = -1;
  int port = 0;
};
Bound bind_loopback(int type, bool v6 = false) {
  Bound bound;
  bound.fd = socket(v6 ? AF_INET6 : AF_INET, type | SOCK_CLOEXEC, 0);
  sockaddr_storage address{};
  socklen_t length;
  if (v6) {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&address);
    in6->sin6_family = AF_INET6;
    in6->sin6_addr = in6addr_loopback;
    length = sizeof(sockaddr_in6);
  } else {
    auto* in = reinterpret_cast<sockaddr_in*>(&address);
    in->sin_family = AF_INET;
    in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    length = sizeof(sockaddr_in);
  }
  if (bound.fd < 0 || bind(bound.fd, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      getsockname(bound.fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    return {};
  bound.port = ntohs(v6 ? reinterpret_cast<sockaddr_in6*>(&address)->sin6_port
                        : reinterpret_cast<sockaddr_in*>(&address)->sin_port);
  return bound;
}

sockaddr_in loopback_v4(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(uint16_t(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

sockaddr_in6 loopback_v6(int port) {
  sockaddr_in6 address{};
  address.sin6_family = AF_INET6;
  address.sin6_port = htons(uint16_t(port));
  address.sin6_addr = in6addr_loopback;
  return address;
}

int local_port(int fd) {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return 0;
  return ntohs(address.sin_port);
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::vector<std::vector<std::string>> sorted(std::vector<std::vector<std::string>> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

TEST_CASE("tcp: a connection over 127.0.0.1 from connect to close, and a connect refused") {
  Bound listener = bind_loopback(SOCK_STREAM);
  REQUIRE(listener.port > 0);
  // A port nobody listens on: bound once, then released.
  Bound gone = bind_loopback(SOCK_STREAM);
  REQUIRE(gone.port > 0);
  close(gone.fd);
  std::string script = replace_all(replace_all(R"(
    int ours[uintptr_t];
    tcp:::state-change /ours[args[3]->tcps_addr] || args[3]->tcps_lport == LISTEN_PORT || args[3]->tcps_rport == LISTEN_PORT ||
                        args[3]->tcps_rport == NOBODY_PORT/ {
      @states[tcp_state_string[args[5]->tcps_state], tcp_state_string[args[3]->tcps_state]] = count();
      ours[args[3]->tcps_addr] = args[3]->tcps_state != TCP_STATE_CLOSED; }
    tcp:::connect-request /args[4]->tcp_dport == LISTEN_PORT || args[4]->tcp_dport == NOBODY_PORT/ {
      @requests[execname, args[4]->tcp_dport, args[3]->tcps_lport == args[4]->tcp_sport,
                tcp_state_string[args[3]->tcps_state], args[4]->tcp_flags] = count(); }
    tcp:::connect-established /args[3]->tcps_rport == LISTEN_PORT/ {
      printf("connected %s %d %s %d %s %d\n", args[3]->tcps_laddr, args[3]->tcps_lport, args[3]->tcps_raddr,
             args[3]->tcps_rport, tcp_state_string[args[3]->tcps_state],
             args[3]->tcps_rtt < 1000 && args[3]->tcps_rtt_sd < 1000);
      printf("segment connected %s %d %s %d %d\n", args[2]->ip_saddr, args[4]->tcp_sport, args[2]->ip_daddr,
             args[4]->tcp_dport, args[2]->ip_ver); }
    tcp:::accept-established /args[3]->tcps_lport == LISTEN_PORT/ {
      printf("accepted %s %d %s %d %s\n", args[3]->tcps_laddr, args[3]->tcps_lport, args[3]->tcps_raddr,
             args[3]->tcps_rport, tcp_state_string[args[3]->tcps_state]);
      printf("segment accepted %s %d %s %d %d\n", args[2]->ip_saddr, args[4]->tcp_sport, args[2]->ip_daddr,
             args[4]->tcp_dport, args[2]->ip_ver); }
    tcp:::connect-refused /args[3]->tcps_rport == NOBODY_PORT/ {
      printf("refused %s %d %s\n", args[3]->tcps_raddr, args[3]->tcps_rport, execname);
      printf("segment refused %s %d %d\n", args[2]->ip_saddr, args[4]->tcp_sport, args[4]->tcp_dport == args[3]->tcps_lport); }
    tcp:::accept-refused /args[4]->tcp_sport == NOBODY_PORT/ {
      printf("rejected %s %s %d\n", args[2]->ip_saddr, args[2]->ip_daddr, args[4]->tcp_flags == (TH_RST | TH_ACK)); }
    tcp:::accept-established, tcp:::accept-refused
    /args[4]->tcp_dport == LISTEN_PORT || args[4]->tcp_sport == NOBODY_PORT/ {
      @accepts[probename, args[2]->ip_saddr, args[3]->tcps_lport] = count(); }
    tcp:::send, tcp:::receive /args[4]->tcp_dport == LISTEN_PORT && args[2]->ip_plength > args[4]->tcp_offset/ {
      @data[probename, args[2]->ip_saddr, args[2]->ip_daddr, args[4]->tcp_sport, args[3]->tcps_lport,
            args[2]->ip_plength - args[4]->tcp_offset] = count(); }
    tcp:::receive /args[4]->tcp_sport == NOBODY_PORT && args[4]->tcp_flags & TH_RST/ {
      @resets[tcp_state_string[args[3]->tcps_state]] = count(); }
    tcp:::receive /args[4]->tcp_dport == NOBODY_PORT/ { @unheard[args[3]->tcps_addr, args[3]->tcps_raddr] = count(); }
    tcp:::receive /args[4]->tcp_dport == LISTEN_PORT && args[4]->tcp_flags == TH_SYN/ {
      @syn[tcp_state_string[args[3]->tcps_state], args[3]->tcps_lport] = count(); }
    END {
      printa("state %s %s %@d\n", @states);
      printa("request %s %d %d %s %d %@d\n", @requests);
      printa("data %s %s %s %d %d %d %@d\n", @data);
      printa("resets %s %@d\n", @resets);
      printa("unheard %d %s %@d\n", @unheard);
      printa("syn %s %d %@d\n", @syn);
      printa("accepts %s %s %d %@d\n", @accepts);
    })", "NOBODY_PORT", std::to_string(gone.port)), "LISTEN_PORT", std::to_string(listener.port));
  TracedWindow window({"-qn", script});
  if (!window.is_open()) FAIL(window.close().err);
  int client_port = 0;
  int client_ports[2];
  REQUIRE(pipe2(client_ports, O_CLOEXEC) == 0);
  run_named_child("dsched-net", [&] {
    child_must(listen(listener.fd, 1) == 0);
    int client = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to = loopback_v4(listener.port);
    child_must(connect(client, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0);
    int port = local_port(client);
    child_must(write(client_ports[1], &port, sizeof port) == sizeof port);
    int server = accept(listener.fd, nullptr, nullptr);
    child_must(server >= 0);
    std::string data(kDataBytes, 'x');
    child_must(send(client, data.data(), data.size(), 0) == kDataBytes);
    char buffer[kDataBytes];
    int received = 0;
    while (received < kDataBytes) {
      ssize_t n = recv(server, buffer, sizeof buffer, 0);
      child_must(n > 0);
      received += int(n);
    }
    close(client);
    child_must(recv(server, buffer, sizeof buffer, 0) == 0);  // the client's FIN
    close(server);
    close(listener.fd);
    int refused = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in nobody = loopback_v4(gone.port);
    child_must(connect(refused, reinterpret_cast<sockaddr*>(&nobody), sizeof nobody) != 0 && errno == ECONNREFUSED);
    close(refused);
  });
  close(listener.fd);
  REQUIRE(read(client_ports[0], &client_port, sizeof client_port) == sizeof client_port);
  close(client_ports[0]);
  close(client_ports[1]);
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  std::string port = std::to_string(listener.port), client = std::to_string(client_port);
  std::string closed = std::to_string(gone.port);

  // Linux replaces a socket entering TIME_WAIT by a smaller one: the socket itself closes. A
  // closing socket has given its port back when the state changes: the script follows its
  // sockets by address.
  CHECK(sorted(rows_tagged(run.out, "state")) == sorted({
      {"state-closed", "state-listen", "1"},
      {"state-closed", "state-syn-sent", "2"},
      {"state-syn-sent", "state-established", "1"},
      {"state-listen", "state-syn-received", "1"},
      {"state-syn-received", "state-established", "1"},
      {"state-established", "state-fin-wait-1", "1"},
      {"state-established", "state-close-wait", "1"},
      {"state-close-wait", "state-last-ack", "1"},
      {"state-fin-wait-1", "state-fin-wait-2", "1"},
      {"state-fin-wait-2", "state-closed", "1"},
      {"state-last-ack", "state-closed", "1"},
      {"state-listen", "state-closed", "1"},
      {"state-syn-sent", "state-closed", "1"},
  }));
  // A SYN (TH_SYN, 2) from the connecting thread's socket, in SYN_SENT.
  CHECK(sorted(rows_tagged(run.out, "request")) == sorted({
      {"dsched-net", port, "1", "state-syn-sent", "2", "1"},
      {"dsched-net", closed, "1", "state-syn-sent", "2", "1"},
  }));
  CHECK(rows_tagged(run.out, "connected") ==
        std::vector<std::vector<std::string>>{{"127.0.0.1", client, "127.0.0.1", port, "state-established", "1"}});
  CHECK(rows_tagged(run.out, "accepted") ==
        std::vector<std::vector<std::string>>{{"127.0.0.1", port, "127.0.0.1", client, "state-established"}});
  CHECK(rows_tagged(run.out, "refused") ==
        std::vector<std::vector<std::string>>{{"127.0.0.1", closed, "dsched-net"}});
  // The segment each of these follows came from the other end: its addresses and ports.
  CHECK(sorted(rows_tagged(run.out, "segment")) == sorted({
      {"connected", "127.0.0.1", port, "127.0.0.1", client, "4"},
      {"accepted", "127.0.0.1", client, "127.0.0.1", port, "4"},
      {"refused", "127.0.0.1", closed, "1"},
  }));
  CHECK(rows_tagged(run.out, "rejected") == std::vector<std::vector<std::string>>{{"127.0.0.1", "127.0.0.1", "1"}});
  // One clause for both: each description has args[] through its own translators, as in DTrace.
  CHECK(sorted(rows_tagged(run.out, "accepts")) == sorted({
      {"accept-established", "127.0.0.1", port, "1"},
      {"accept-refused", "127.0.0.1", closed, "1"},
  }));
  // The data in one segment each way: ip_plength is the TCP header and the data. A segment is
  // sent from the client's socket and arrives for the accepted one.
  std::string bytes = std::to_string(kDataBytes);
  CHECK(sorted(rows_tagged(run.out, "data")) == sorted({
      {"receive", "127.0.0.1", "127.0.0.1", client, port, bytes, "1"},
      {"send", "127.0.0.1", "127.0.0.1", client, client, bytes, "1"},
  }));
  // A segment arrives for the socket the kernel would give it: a SYN for the listener, the reset
  // for the connecting socket. Nobody's SYN has no socket (address 0): its ends come from the SYN.
  CHECK(rows_tagged(run.out, "resets") == std::vector<std::vector<std::string>>{{"state-syn-sent", "1"}});
  CHECK(rows_tagged(run.out, "unheard") == std::vector<std::vector<std::string>>{{"0", "127.0.0.1", "1"}});
  CHECK(rows_tagged(run.out, "syn") == std::vector<std::vector<std::string>>{{"state-listen", port, "1"}});
  CHECK(leftover_programs().empty());
}

TEST_CASE("tcp: the payloads of a large send add up to its bytes, offloaded segments included") {
  constexpr int kBigBytes = 300000;  // beyond 64 KB: loopback sends such segments whole (BIG TCP)
  Bound listener = bind_loopback(SOCK_STREAM);
  REQUIRE(listener.port > 0);
  REQUIRE(listen(listener.fd, 1) == 0);
  std::string script = replace_all(R"(
    tcp:::send, tcp:::receive /args[4]->tcp_dport == LISTEN_PORT/ {
      @payload[probename] = sum(args[2]->ip_plength - args[4]->tcp_offset); }
    END { printa("payload %s %@d\n", @payload); })", "LISTEN_PORT", std::to_string(listener.port));
  TracedWindow window({"-qn", script});
  if (!window.is_open()) FAIL(window.close().err);
  int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to = loopback_v4(listener.port);
  REQUIRE(connect(client, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0);
  int server = accept4(listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
  REQUIRE(server >= 0);
  std::string data(kBigBytes, 'z');
  size_t sent = 0, received = 0;
  std::string buffer(1 << 16, '\0');
  while (received < data.size()) {
    if (sent < data.size()) {
      ssize_t n = send(client, data.data() + sent, data.size() - sent, MSG_DONTWAIT);
      if (n > 0) sent += size_t(n);
    }
    ssize_t n = recv(server, buffer.data(), buffer.size(), sent < data.size() ? MSG_DONTWAIT : 0);
    if (n > 0) received += size_t(n);
  }
  for (int fd : {client, server, listener.fd}) close(fd);
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  std::string bytes = std::to_string(kBigBytes);
  CHECK(sorted(rows_tagged(run.out, "payload")) ==
        sorted({{"receive", bytes}, {"send", bytes}}));
  CHECK(leftover_programs().empty());
}

TEST_CASE("udp and ip: datagrams of a known size over IPv4 and IPv6 loopback") {
  Bound receiver4 = bind_loopback(SOCK_DGRAM), sender4 = bind_loopback(SOCK_DGRAM);
  Bound receiver6 = bind_loopback(SOCK_DGRAM, true), sender6 = bind_loopback(SOCK_DGRAM, true);
  REQUIRE(receiver4.port > 0);
  REQUIRE(sender4.port > 0);
  REQUIRE(receiver6.port > 0);
  REQUIRE(sender6.port > 0);
  std::string script = replace_all(replace_all(R"(
    udp:::send, udp:::receive /args[4]->udp_dport == DEST_PORT4 || args[4]->udp_dport == DEST_PORT6/ {
      @udp[probename, args[2]->ip_ver, args[2]->ip_saddr, args[2]->ip_daddr, args[4]->udp_sport,
           args[3]->udps_lport, args[4]->udp_length, args[2]->ip_plength,
           args[1]->cs_cid == args[1]->cs_addr && args[1]->cs_zoneid == 0] = count(); }
    ip:::send, ip:::receive /args[3]->if_local && args[2]->ip_plength == LENGTH && args[2]->ip_ver == 4 &&
        args[4]->ipv4_protocol == IPPROTO_UDP/ {
      @ip[probename, args[2]->ip_ver, args[3]->if_name, args[4]->ipv4_protostr, args[5]->ipv6_saddr,
          args[4]->ipv4_length - args[4]->ipv4_ihl] = count(); }
    ip:::send, ip:::receive /args[3]->if_local && args[2]->ip_plength == LENGTH && args[2]->ip_ver == 6 &&
        args[5]->ipv6_nexthdr == IPPROTO_UDP/ {
      @ip[probename, args[2]->ip_ver, args[3]->if_name, args[5]->ipv6_nextstr, args[4]->ipv4_saddr,
          args[5]->ipv6_plen] = count(); }
    END {
      printa("udp %s %d %s %s %d %d %d %d %d %@d\n", @udp);
      printa("ip %s %d %s %s %s %d %@d\n", @ip);
    })", "DEST_PORT4", std::to_string(receiver4.port)), "DEST_PORT6", std::to_string(receiver6.port));
  script = replace_all(script, "LENGTH", std::to_string(kDatagramBytes + kUdpHeaderBytes));
  TracedWindow window({"-qn", script});
  if (!window.is_open()) FAIL(window.close().err);
  std::string data(kDatagramBytes, 'y');
  sockaddr_in to4 = loopback_v4(receiver4.port);
  sockaddr_in6 to6 = loopback_v6(receiver6.port);
  for (int i = 0; i < kDatagrams; ++i) {
    CHECK(sendto(sender4.fd, data.data(), data.size(), 0, reinterpret_cast<sockaddr*>(&to4), sizeof to4) == kDatagramBytes);
    CHECK(sendto(sender6.fd, data.data(), data.size(), 0, reinterpret_cast<sockaddr*>(&to6), sizeof to6) == kDatagramBytes);
  }
  for (int fd : {receiver4.fd, sender4.fd, receiver6.fd, sender6.fd}) close(fd);
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  std::string length = std::to_string(kDatagramBytes + kUdpHeaderBytes), count = std::to_string(kDatagrams);
  std::string from4 = std::to_string(sender4.port), from6 = std::to_string(sender6.port);
  // udpsinfo_t's ends come from the datagram, as DTrace for Linux takes them: the local port is
  // the sender's where it is sent and the receiver's where it arrives.
  std::string to_port4 = std::to_string(receiver4.port), to_port6 = std::to_string(receiver6.port);
  CHECK(sorted(rows_tagged(run.out, "udp")) == sorted({
      {"receive", "4", "127.0.0.1", "127.0.0.1", from4, to_port4, length, length, "1", count},
      {"receive", "6", "::1", "::1", from6, to_port6, length, length, "1", count},
      {"send", "4", "127.0.0.1", "127.0.0.1", from4, from4, length, length, "1", count},
      {"send", "6", "::1", "::1", from6, from6, length, length, "1", count},
  }));
  // The other version's header is NULL: its addresses read "<null>". Other UDP packets of the same
  // size may pass on lo, so at least the test's own are counted.
  auto ip = rows_tagged(run.out, "ip");
  for (const char* probe : {"send", "receive"}) {
    for (const char* version : {"4", "6"}) {
      auto row = std::find_if(ip.begin(), ip.end(), [&](const auto& r) {
        return r.size() == 7 && r[0] == probe && r[1] == version;
      });
      CAPTURE(probe);
      CAPTURE(version);
      REQUIRE(row != ip.end());
      CHECK(std::vector<std::string>(row->begin(), row->begin() + 6) ==
            std::vector<std::string>{probe, version, "lo", "UDP", "<null>", length});
      CHECK(std::stoi(row->at(6)) >= kDatagrams);
    }
  }
  CHECK(leftover_programs().empty());
}

TEST_CASE("net providers: probes listed with DTrace's argument types; what is not translated is refused") {
  RunResult tcp = run_dsched({"-l", "-P", "tcp"});
  REQUIRE(tcp.status == 0);
  std::vector<std::string> names;
  for (const auto& row : parse_rows(tcp.out))
    if (row.size() == 4 && row[1] == "tcp") names.push_back(row[3]);
  CHECK(names == std::vector<std::string>{"accept-established", "accept-refused", "connect-established",
                                          "connect-refused", "connect-request", "receive", "send", "state-change"});
  RunResult state = run_dsched({"-lv", "-n", "tcp:::state-change"});
  CHECK(state.out.find("args[3]: tcpsinfo_t *") != std::string::npos);
  CHECK(state.out.find("args[5]: tcplsinfo_t *") != std::string::npos);
  RunResult ip = run_dsched({"-lv", "-n", "ip:::receive"});
  for (const char* type : {"pktinfo_t *", "csinfo_t *", "ipinfo_t *", "ifinfo_t *", "ipv4info_t *", "ipv6info_t *"})
    CHECK(ip.out.find(type) != std::string::npos);
  RunResult udp = run_dsched({"-lv", "-n", "udp:::send"});
  CHECK(udp.out.find("args[3]: udpsinfo_t *") != std::string::npos);
  CHECK(udp.out.find("args[4]: udpinfo_t *") != std::string::npos);

  RunResult iss = run_dsched({"-e", "-n", "tcp:::send { trace(args[3]->tcps_iss); }"});
  CHECK(iss.status == 1);
  CHECK(iss.err.find("does not define member tcps_iss") != std::string::npos);
  RunResult seq = run_dsched({"-e", "-n", "tcp:::accept-established { trace(args[4]->tcp_seq); }"});
  CHECK(seq.status == 1);
  CHECK(seq.err.find("does not define member tcp_seq") != std::string::npos);
  RunResult rto = run_dsched({"-e", "-n", "tcp:::state-change { trace(args[3]->tcps_rto); }"});
  CHECK(rto.status == 1);
  CHECK(rto.err.find("tcps_rto") != std::string::npos);
}
