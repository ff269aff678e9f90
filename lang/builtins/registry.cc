#include "lang/builtins/builtin.h"

#include <map>
#include <string>

namespace dsched::lang {
namespace {

template <typename T>
std::map<std::string, const T*, std::less<>>& table() {
  static std::map<std::string, const T*, std::less<>> entries;
  return entries;
}

template <typename T>
const T* find(std::string_view name) {
  auto& entries = table<T>();
  auto it = entries.find(name);
  return it == entries.end() ? nullptr : it->second;
}

template <typename T>
std::vector<const T*> all() {
  std::vector<const T*> out;
  for (const auto& [name, descriptor] : table<T>()) out.push_back(descriptor);
  return out;
}

}  // namespace

const Function* find_function(std::string_view name) { return find<Function>(name); }
const AggregatingFunction* find_aggregating_function(std::string_view name) {
  return find<AggregatingFunction>(name);
}
const BuiltinVariable* find_builtin_variable(std::string_view name) { return find<BuiltinVariable>(name); }

bool is_reserved_variable_name(std::string_view name) {
  return name == "args" || find_builtin_variable(name) != nullptr;
}

std::vector<const Function*> all_functions() { return all<Function>(); }
std::vector<const AggregatingFunction*> all_aggregating_functions() { return all<AggregatingFunction>(); }
std::vector<const BuiltinVariable*> all_builtin_variables() { return all<BuiltinVariable>(); }

void register_builtin(const Function& f) { table<Function>()[std::string(f.name())] = &f; }
void register_builtin(const AggregatingFunction& f) { table<AggregatingFunction>()[std::string(f.name())] = &f; }
void register_builtin(const BuiltinVariable& v) { table<BuiltinVariable>()[std::string(v.name())] = &v; }

}  // namespace dsched::lang
