#include "abi/records.h"

#include <cstring>

namespace dsched::abi {

Value RecordView::field(const RecordField& field) const {
  if (field.kind == RecordField::Kind::String) {
    std::string_view text = bytes_.substr(field.offset, field.size);
    Value v = Value::string(std::string(text.substr(0, text.find('\0'))));
    v.size = field.size;
    return v;
  }
  if (field.kind == RecordField::Kind::Bytes) return Value::bytes(std::string(bytes_.substr(field.offset, field.size)));
  if (field.kind == RecordField::Kind::Stack || field.kind == RecordField::Kind::Symbol)
    return Value::addresses(field.kind == RecordField::Kind::Stack ? Value::Kind::Stack : Value::Kind::Symbol,
                            field.addresses, bytes_.data() + field.offset);
  int64_t bits;
  std::memcpy(&bits, bytes_.data() + field.offset, sizeof bits);
  return Value::integer(bits, field.size, field.is_signed);
}

std::vector<Value> RecordView::fields(const std::vector<RecordField>& fields) const {
  std::vector<Value> values;
  values.reserve(fields.size());
  for (const RecordField& f : fields) values.push_back(field(f));
  return values;
}

}  // namespace dsched::abi
