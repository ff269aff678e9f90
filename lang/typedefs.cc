#include "lang/typedefs.h"

namespace dsched::lang {
namespace {

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

std::span<const BuiltinTypedef> builtin_typedefs() { return kTypedefs; }

std::unordered_set<std::string> builtin_typedef_names() {
  std::unordered_set<std::string> names{"caddr_t"};
  for (const BuiltinTypedef& t : kTypedefs) names.insert(t.name);
  return names;
}

}  // namespace dsched::lang
