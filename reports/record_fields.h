// Typed records as JSON, both ways, from one declaration per type: a record type T in namespace mmasp declares
//   template <typename V> void fields(V& v, T& record)
// naming every member with its key and its presence (v("key", record.member, presence)); FieldWriter makes the JSON
// and FieldReader reads it back with types checked, every error naming the JSON pointer of the value. What reading
// must check beyond types is said by v.check(...). run.json (reports/run_record.cpp) and the screen verdict
// (reports/screen_record.cpp) are declared this way. fields() must be found by argument-dependent lookup: declare it
// in the record's namespace (mmasp), not in an unnamed one.
#pragma once

#include <concepts>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mmasp::record_fields {

using nlohmann::json;

// When a field is written, and whether reading needs it. A member that is std::optional is written only when set
// (as null when unset, with null_when_empty); reading leaves a member at its default when its key is absent or null.
enum class Presence {
  always,           // written always
  required,         // written always; reading refuses a document without it
  unless_empty,     // written only when not empty ("", [], {}, 0)
  null_when_empty,  // written as null when empty
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};
template <typename T>
struct IsStringMap : std::false_type {};
template <typename T>
struct IsStringMap<std::map<std::string, T>> : std::true_type {};

// The enums a record holds: EnumNames<E> gives the parser of the names the serialiser writes (name(E)) and what a
// refusal says; each record's source specialises it for its enums.
template <typename E>
struct EnumNames;

// A member written as something other than an object of fields (run.json's [row, column]): Codec<T> gives
// encode(member) -> json and decode(json, member) -> nullptr, or what was expected.
template <typename T>
struct Codec;
template <typename T>
concept HasCodec = requires(const T& member, const json& v, T& out) {
  { Codec<T>::encode(member) } -> std::convertible_to<json>;
  { Codec<T>::decode(v, out) } -> std::convertible_to<const char*>;
};

class FieldWriter;
template <typename T>
concept Record = requires(FieldWriter& v, T& record) {
  fields(v, record);
};

template <typename T>
bool is_empty(const T& member) {
  if constexpr (std::is_arithmetic_v<T>)
    return member == T{};
  else if constexpr (requires { member.empty(); })
    return member.empty();
  else
    return false;
}

class FieldWriter {
 public:
  template <typename T>
  void operator()(const char* key, const T& member, Presence presence = Presence::always, bool written = true) {
    if (!written) return;
    if constexpr (IsOptional<T>::value) {
      if (member)
        out[key] = encode(*member);
      else if (presence == Presence::null_when_empty)
        out[key] = nullptr;
    } else if (presence == Presence::unless_empty && is_empty(member)) {
    } else if (presence == Presence::null_when_empty && is_empty(member)) {
      out[key] = nullptr;
    } else {
      out[key] = encode(member);
    }
  }
  // Members of this record that its JSON keeps in an object of their own ("mmasp": {version, commit}).
  template <typename Each>
  void object(const char* key, Each&& each) {
    FieldWriter inner;
    each(inner);
    out[key] = std::move(inner.out);
  }
  // Reading alone checks.
  template <typename Check>
  void check(Check&&) {}

  template <typename T>
  static json encode(const T& member) {
    if constexpr (Record<T>) {
      FieldWriter inner;
      fields(inner, const_cast<T&>(member));  // the writer only reads: fields() is one declaration for both ways
      return std::move(inner.out);
    } else if constexpr (std::is_enum_v<T>) {
      return std::string(name(member));
    } else if constexpr (HasCodec<T>) {
      return Codec<T>::encode(member);
    } else if constexpr (IsVector<T>::value) {
      json array = json::array();
      for (const auto& element : member) array.push_back(encode(element));
      return array;
    } else if constexpr (IsStringMap<T>::value) {
      json object = json::object();
      for (const auto& [key, value] : member) object[key] = encode(value);
      return object;
    } else {
      return json(member);
    }
  }

  json out = json::object();
};

template <typename Error>
class FieldReader {
 public:
  FieldReader(const json& value, std::string pointer) : value_(value), pointer_(std::move(pointer)) {
    if (!value_.is_object()) refuse(pointer_, "an object", &value_);
  }

  template <typename T>
  void operator()(const char* key, T& member, Presence presence = Presence::always, bool = true) {
    if (!has(key)) {
      if (presence == Presence::required)
        refuse(at(key), expected_of<T>(), value_.contains(key) ? &value_[key] : nullptr);
      return;
    }
    decode(value_[key], at(key), member);
  }
  template <typename Each>
  void object(const char* key, Each&& each) {
    if (!has(key)) return;
    FieldReader inner(value_[key], at(key));
    each(inner);
  }
  // A condition the document must meet beyond its types: {holds, the key (or key/index) of the value that is wrong,
  // what the error says of it}.
  template <typename Check>
  void check(Check&& condition) {
    if (const auto [holds, key, says] = condition(); !holds) throw Error(at(key) + ": " + says);
  }

  bool has(const char* key) const { return value_.contains(key) && !value_[key].is_null(); }
  std::string at(const std::string& key) const { return pointer_ + "/" + key; }

  [[noreturn]] static void refuse(const std::string& where, const std::string& expected, const json* found) {
    throw Error((where.empty() ? std::string("/") : where) + ": " + expected + " is expected" +
                (found ? ", not " + std::string(found->type_name()) : " and missing"));
  }

  template <typename T>
  static const char* expected_of() {
    if constexpr (std::is_same_v<T, std::string> || std::is_enum_v<T>)
      return "a string";
    else if constexpr (std::is_same_v<T, bool>)
      return "true or false";
    else if constexpr (std::is_integral_v<T>)
      return "a whole number";
    else if constexpr (std::is_floating_point_v<T>)
      return "a number";
    else if constexpr (IsVector<T>::value)
      return "an array";
    else
      return "an object";
  }

  template <typename T>
  static void decode(const json& v, const std::string& at, T& member) {
    if constexpr (IsOptional<T>::value) {
      member.emplace();
      decode(v, at, *member);
    } else if constexpr (Record<T>) {
      FieldReader inner(v, at);
      fields(inner, member);
    } else if constexpr (std::is_enum_v<T>) {
      if (!v.is_string()) refuse(at, "a string", &v);
      const std::string spelled = v.get<std::string>();
      const auto parsed = EnumNames<T>::parse(spelled);
      if (!parsed) throw Error(at + ": " + EnumNames<T>::refusal(spelled));
      member = *parsed;
    } else if constexpr (HasCodec<T>) {
      if (const char* expected = Codec<T>::decode(v, member)) refuse(at, expected, &v);
    } else if constexpr (IsVector<T>::value) {
      if (!v.is_array()) refuse(at, "an array", &v);
      member.clear();
      for (size_t i = 0; i < v.size(); ++i) decode(v[i], at + "/" + std::to_string(i), member.emplace_back());
    } else if constexpr (IsStringMap<T>::value) {
      if (!v.is_object()) refuse(at, "an object", &v);
      for (const auto& [key, value] : v.items()) decode(value, at + "/" + key, member[key]);
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!v.is_string()) refuse(at, "a string", &v);
      member = v.get<std::string>();
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) refuse(at, "true or false", &v);
      member = v.get<bool>();
    } else if constexpr (std::is_same_v<T, double>) {
      if (!v.is_number()) refuse(at, "a number", &v);
      member = v.get<double>();
    } else if constexpr (std::is_same_v<T, uint32_t>) {  // a 32-bit code of D
      const uint64_t value = whole(v, at);
      if (value > 0xffffffffu) refuse(at, "a 32-bit code", &v);
      member = uint32_t(value);
    } else if constexpr (std::is_unsigned_v<T>) {
      member = whole(v, at);
    } else if constexpr (std::is_same_v<T, int>) {
      // An unsigned beyond INT64_MAX would read as a negative int64: compared as unsigned first.
      const bool fits = v.is_number_unsigned()
                            ? v.get<uint64_t>() <= uint64_t(std::numeric_limits<int>::max())
                            : v.is_number_integer() && v.get<int64_t>() >= std::numeric_limits<int>::min() &&
                                  v.get<int64_t>() <= std::numeric_limits<int>::max();
      if (!fits) refuse(at, "a whole number", &v);
      member = v.get<int>();
    } else {
      static_assert(sizeof(T) == 0, "a record has no encoding for this member type");
    }
  }

 private:
  static uint64_t whole(const json& v, const std::string& at) {
    if (!(v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0)))
      refuse(at, "a whole number >= 0", &v);
    return v.get<uint64_t>();
  }

  const json& value_;
  std::string pointer_;
};

// A document: {"schema": SCHEMA, then the record's fields}. Reading refuses another schema (or none) before anything
// else, saying what the document was expected to be.
template <typename T>
json write_document(const char* schema, const T& record) {
  json out = {{"schema", schema}};
  out.update(FieldWriter::encode(record));
  return out;
}
template <typename Error, typename T>
T read_document(const json& document, const char* schema, const std::string& what) {
  if (!document.is_object() || !document.contains("schema") || document["schema"] != schema)
    throw Error("/schema: \"" + std::string(schema) + "\" is expected (not " + what +
                ", or written by another version)");
  T record;
  FieldReader<Error>::decode(document, "", record);
  return record;
}

}  // namespace mmasp::record_fields
