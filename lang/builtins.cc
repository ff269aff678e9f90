#include "builtins.h"

#include <map>

namespace dsched::lang {
namespace {

struct BuiltinSpec {
  Builtin builtin;
  const char* type;
};

const std::map<std::string, BuiltinSpec>& builtin_table() {
  static const std::map<std::string, BuiltinSpec> table = [] {
    std::map<std::string, BuiltinSpec> t;
    auto add = [&](Builtin b, const char* type) { t[builtin_name(b)] = {b, type}; };
    add(Builtin::Timestamp, "uint64_t");
    add(Builtin::Vtimestamp, "uint64_t");
    add(Builtin::Walltimestamp, "int64_t");
    add(Builtin::Cpu, "processorid_t");
    add(Builtin::Curcpu, nullptr);
    add(Builtin::Pid, "pid_t");
    add(Builtin::Ppid, "pid_t");
    add(Builtin::Tid, "id_t");
    add(Builtin::Execname, "string");
    add(Builtin::Uid, "uid_t");
    add(Builtin::Gid, "gid_t");
    add(Builtin::Probeprov, "string");
    add(Builtin::Probemod, "string");
    add(Builtin::Probefunc, "string");
    add(Builtin::Probename, "string");
    for (int i = 0; i <= 9; ++i) add(Builtin(int(Builtin::Arg0) + i), "int64_t");
    add(Builtin::Args, nullptr);
    add(Builtin::Curthread, "struct task_struct *");
    add(Builtin::Curlwpsinfo, nullptr);
    add(Builtin::Curpsinfo, nullptr);
    add(Builtin::Stackdepth, "uint32_t");
    add(Builtin::Ustackdepth, "uint32_t");
    add(Builtin::Errno, "int");
    add(Builtin::Epid, "uint32_t");
    add(Builtin::Id, "uint32_t");
    return t;
  }();
  return table;
}

constexpr BuiltinTypedef kTypedefs[] = {
    {"int8_t", 1, true},        {"int16_t", 2, true},       {"int32_t", 4, true},
    {"int64_t", 8, true},       {"uint8_t", 1, false},      {"uint16_t", 2, false},
    {"uint32_t", 4, false},     {"uint64_t", 8, false},     {"intptr_t", 8, true},
    {"uintptr_t", 8, false},    {"size_t", 8, false},       {"ssize_t", 8, true},
    {"pid_t", 4, true},         {"id_t", 4, true},          {"uid_t", 4, false},
    {"gid_t", 4, false},        {"processorid_t", 4, true}, {"psetid_t", 4, true},
    {"chipid_t", 4, true},      {"lgrp_id_t", 4, true},     {"dev_t", 8, false},
    {"time_t", 8, true},        {"hrtime_t", 8, true},      {"taskid_t", 4, true},
    {"projid_t", 4, true},      {"poolid_t", 4, true},      {"zoneid_t", 4, true},
    {"ctid_t", 4, true},        {"pri_t", 4, true},         {"uchar_t", 1, false},
    {"ushort_t", 2, false},     {"uint_t", 4, false},       {"ulong_t", 8, false},
    {"longlong_t", 8, true},    {"u_longlong_t", 8, false}, {"u8", 1, false},
    {"u16", 2, false},          {"u32", 4, false},          {"u64", 8, false},
    {"s8", 1, true},            {"s16", 2, true},           {"s32", 4, true},
    {"s64", 8, true},
};

}  // namespace

std::optional<Builtin> find_builtin(const std::string& name) {
  auto it = builtin_table().find(name);
  if (it == builtin_table().end()) return std::nullopt;
  return it->second.builtin;
}

const char* builtin_type(Builtin builtin) {
  return builtin_table().at(builtin_name(builtin)).type;
}

std::span<const BuiltinTypedef> builtin_typedefs() { return kTypedefs; }

}  // namespace dsched::lang
