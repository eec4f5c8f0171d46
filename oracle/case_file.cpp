#include "oracle/case_file.h"
#include "oracle/target.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <fstream>

#include "oracle/classification.h"
#include "oracle/input_file.h"
#include "oracle/output_file.h"
#include "oracle/number_format.h"
#include "oracle/sparse.h"
#include "oracle/text.h"

namespace mmasp {
namespace {

using nlohmann::json;
constexpr const char* kSchema = "mmasp-case/1";

// Every error names the JSON pointer of what is wrong ("/b/3/2: ...").
[[noreturn]] void fail(const std::string& where, const std::string& what) { throw CaseFileError(where + ": " + what); }

// A whole number in [low, high] (selector, scale ids, positions): not 1.5, not true, not 1e300, not 2^32.
int whole_number(const json& value, const std::string& where, int64_t low, int64_t high) {
  const bool integral = value.is_number_integer() && !(value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(INT64_MAX));
  if (!integral || value.get<int64_t>() < low || value.get<int64_t>() > high)
    fail(where, "a whole number from " + std::to_string(low) + " to " + std::to_string(high) + " is expected, not " + value.dump());
  return int(value.get<int64_t>());
}

std::string text_of(const json& value, const std::string& where) {
  if (!value.is_string()) fail(where, std::string("a string is expected, not ") + value.type_name());
  return value.get<std::string>();
}

template <typename Container>
void no_unknown_keys(const json& object, const Container& known, const std::string& where) {
  for (const auto& [key, value] : object.items())
    if (std::find(std::begin(known), std::end(known), key) == std::end(known)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(where + "/" + key, "unknown key (a misspelling? known: " + list + ")");
    }
}

uint32_t parse_raw(const std::string& text, const std::string& where) {
  try {
    const bool binary = text.rfind("0b", 0) == 0;
    const std::string digits = text.substr(text.rfind("0x", 0) == 0 || binary ? 2 : 0);
    // Digits only: stoull would also take leading blanks and signs ("0x 3c00", "0x-1").
    const auto is_digit = [binary](char c) { return binary ? (c == '0' || c == '1') : std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), is_digit)) fail(where, "cannot read code \"" + text + "\"");
    size_t used = 0;
    unsigned long long value = std::stoull(digits, &used, binary ? 2 : 16);
    if (used != digits.size()) fail(where, "cannot read code \"" + text + "\"");
    if (value > 0xFFFFFFFFull) fail(where, "code " + text + " does not fit 32 bits");
    return uint32_t(value);
  } catch (const std::logic_error&) {
    fail(where, "cannot read code \"" + text + "\"");
  }
}

// A matrix in one of two notations: an array of rows, or {"fill": v, "set": [[row, col, v], ...]}.
std::vector<uint32_t> parse_matrix(const json& node, int rows, int cols, const std::string& where,
                                   const std::function<uint32_t(const json&, const std::string&)>& element) {
  std::vector<uint32_t> matrix(size_t(rows * cols));
  if (node.is_array()) {
    if (node.size() != size_t(rows)) fail(where, "has " + std::to_string(node.size()) + " rows, expected " + std::to_string(rows));
    for (int r = 0; r < rows; ++r) {
      const json& row = node[size_t(r)];
      if (!row.is_array() || row.size() != size_t(cols))
        fail(where + "/" + std::to_string(r), "expected a row of " + std::to_string(cols) + " values");
      for (int c = 0; c < cols; ++c)
        matrix[size_t(r * cols + c)] = element(row[size_t(c)], where + "/" + std::to_string(r) + "/" + std::to_string(c));
    }
    return matrix;
  }
  if (!node.is_object() || !node.contains("fill"))
    fail(where, "expected an array of rows or an object {\"fill\": value, \"set\": [[row, col, value], ...]}");
  no_unknown_keys(node, std::array{"fill", "set"}, where);
  std::fill(matrix.begin(), matrix.end(), element(node["fill"], where + "/fill"));
  if (node.contains("set")) {
    if (!node["set"].is_array()) fail(where + "/set", "an array of [row, col, value] is expected");
    for (size_t i = 0; i < node["set"].size(); ++i) {
      const json& entry = node["set"][i];
      const std::string at = where + "/set/" + std::to_string(i);
      if (!entry.is_array() || entry.size() != 3) fail(at, "each entry is [row, col, value]");
      const int r = whole_number(entry[0], at + "/0", 0, rows - 1), c = whole_number(entry[1], at + "/1", 0, cols - 1);
      matrix[size_t(r * cols + c)] = element(entry[2], at + "/2");
    }
  }
  return matrix;
}

std::vector<uint32_t> parse_typed_matrix(const json& node, ElemType type, int rows, int cols, const std::string& where) {
  return parse_matrix(node, rows, cols, where, [type](const json& v, const std::string& at) { return parse_element(type, v, at); });
}

std::vector<uint32_t> parse_nibbles(const json& node, int rows, int cols, const std::string& where) {
  return parse_matrix(node, rows, cols, where, [](const json& v, const std::string& at) -> uint32_t {
    if (v.is_string()) {
      const uint32_t nibble = parse_raw(v.get<std::string>(), at);
      if (nibble > 15) fail(at, "a metadata nibble is 0..15 (or \"0b....\")");
      return nibble;
    }
    return uint32_t(whole_number(v, at, 0, 15));
  });
}

json matrix_to_json(const std::vector<uint32_t>& matrix, int rows, int cols) {
  json out = json::array();
  for (int r = 0; r < rows; ++r) {
    json row = json::array();
    for (int c = 0; c < cols; ++c) row.push_back(hex_code(matrix[size_t(r * cols + c)]));
    out.push_back(row);
  }
  return out;
}

bool is_zero_code(ElemType type, uint32_t code) {
  if (!info(type).is_float) return decode_integer(type, code) == 0;
  auto value = decode(type, code);
  return value && value->cls == FloatClass::zero;
}

// Dense logical A to compressed A + nibbles: each chunk keeps its non-zero positions, topped up with the lowest
// unused positions, in increasing order.
void compress_dense(const json& node, MmaCase& test) {
  const Form& form = *test.form;
  const int m = form.shape.m, k = form.shape.k;
  std::vector<uint32_t> dense = parse_typed_matrix(node, form.a, m, k, "/a");
  const int unit = elements_per_position(form.sparsity);
  const int positions = positions_per_chunk(form.sparsity);
  std::vector<ChunkPositions> chosen;
  for (int r = 0; r < m; ++r)
    for (int chunk = 0; chunk < k / form.chunk_width; ++chunk) {
      std::vector<int> keep;
      for (int p = 0; p < positions; ++p) {
        bool nonzero = false;
        for (int e = 0; e < unit; ++e)
          nonzero |= !is_zero_code(form.a, dense[size_t(r * k + chunk * form.chunk_width + p * unit + e)]);
        if (nonzero) keep.push_back(p);
      }
      if (int(keep.size()) > stored_per_chunk(form.sparsity))
        fail("a[" + std::to_string(r) + "]", "chunk " + std::to_string(chunk) + " has more non-zero " +
                                                 (unit == 2 ? "pairs" : "elements") + " than " + std::string(name(form.sparsity)) +
                                                 " sparsity keeps");
      for (int p = 0; int(keep.size()) < stored_per_chunk(form.sparsity); ++p)
        if (std::find(keep.begin(), keep.end(), p) == keep.end()) keep.push_back(p);
      std::sort(keep.begin(), keep.end());
      chosen.push_back({keep[0], keep.size() > 1 ? keep[1] : 0});
    }
  SparseA sparse = compress(form, dense, chosen);
  test.a_compressed = std::move(sparse.compressed);
  test.nibbles = std::move(sparse.nibbles);
}

}  // namespace

uint32_t parse_element(ElemType type, const json& value, const std::string& where) {
  const bool is_float = info(type).is_float;
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text.rfind("0x", 0) == 0 || text.rfind("0b", 0) == 0) {
      const uint32_t code = parse_raw(text, where);
      // A code is the type's own bits (tf32: its whole 32-bit register); wider codes would be silently masked.
      const int width = type == ElemType::tf32 ? 32 : info(type).bits;
      if (width < 32 && (code >> width) != 0)
        fail(where, "code " + text + " is wider than " + std::string(ptx_name(type)) + "'s " + std::to_string(width) + " bits");
      return code;
    }
    if (!is_float) fail(where, "\"" + text + "\" is not an integer or a code");
    double special = text == "nan" ? std::nan("") : text == "inf" ? HUGE_VAL : text == "-inf" ? -HUGE_VAL
                                    : text == "-0" ? -0.0 : 1.0;
    if (special == 1.0) fail(where, "unknown value \"" + text + "\" (use a number, 0x/0b code, nan, inf, -inf or -0)");
    auto code = encode(type, special);
    if (!code) fail(where, std::string(ptx_name(type)) + " has no " + text);
    if (std::isinf(special) && decode(type, *code)->cls != FloatClass::infinite)
      fail(where, std::string(ptx_name(type)) + " has no Inf");
    return *code;
  }
  if (!value.is_number()) fail(where, "expected a number or a string");
  if (!is_float) {
    if (!value.is_number_integer()) fail(where, "integer types take integers");
    if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(INT64_MAX))
      fail(where, value.dump() + " is outside " + std::string(ptx_name(type)));
    int64_t v = value.get<int64_t>();
    const IntegerRange range = integer_range(type);
    if (v < range.min || v > range.max) fail(where, std::to_string(v) + " is outside " + std::string(ptx_name(type)));
    return encode_integer(type, v);
  }
  double v = value.get<double>();
  auto code = encode(type, v, Overflow::infinity);
  if (!code || decode_to_double(type, *code) != v)
    fail(where, "value " + value.dump() + " is not exactly representable in " + std::string(ptx_name(type)));
  return *code;
}

constexpr std::array kCaseKeys = {"schema", "form", "selector", "comment", "a", "a_compressed", "metadata", "b", "c",
                                   "scale_a", "scale_b", "scale_ids", "metadata_noise", "expected_d", "observed_d",
                                   "expected_status", "provenance"};

static CaseFile parse_fields(const json& root) {
  if (!root.is_object()) fail("/", "the file must hold a JSON object");
  if (!root.contains("schema") || root["schema"] != kSchema) fail("/schema", std::string("must be \"") + kSchema + "\"");
  no_unknown_keys(root, kCaseKeys, "");
  CaseFile file;
  if (!root.contains("form")) fail("/form", "missing");
  const std::string opcode = text_of(root["form"], "/form");
  const Form* form = find_form(opcode);
  if (!form) fail("/form", "\"" + opcode + "\" is not a form of the catalog (see `mmasp list`)");
  MmaCase& test = file.test;
  test.form = form;
  const int m = form->shape.m, n = form->shape.n, k = form->shape.k;
  // Any int: a selector outside the form's range is a legitimate undefined-behaviour case (labelled, never judged).
  test.selector = root.contains("selector") ? whole_number(root["selector"], "/selector", INT32_MIN, INT32_MAX)
                                            : form->selectors.front();
  if (root.contains("comment")) {
    const json& comment = root["comment"];
    if (comment.is_string()) file.comment.push_back(comment.get<std::string>());
    else if (comment.is_array())
      for (size_t i = 0; i < comment.size(); ++i) file.comment.push_back(text_of(comment[i], "/comment/" + std::to_string(i)));
    else fail("/comment", "a string or an array of strings is expected");
  }
  const bool dense = root.contains("a"), compressed = root.contains("a_compressed");
  if (dense == compressed) fail("/a", "give exactly one of \"a\" (dense logical A) and \"a_compressed\" (with \"metadata\")");
  if (dense) {
    if (root.contains("metadata")) fail("/metadata", "with dense \"a\" the metadata is derived; use \"a_compressed\" to give it");
    compress_dense(root["a"], test);
  } else {
    if (!root.contains("metadata")) fail("/metadata", "\"a_compressed\" needs \"metadata\"");
    test.a_compressed = parse_typed_matrix(root["a_compressed"], form->a, m, k / 2, "/a_compressed");
    test.nibbles = parse_nibbles(root["metadata"], m, k / form->chunk_width, "/metadata");
  }
  if (!root.contains("b")) fail("/b", "missing");
  test.b = parse_typed_matrix(root["b"], form->b, k, n, "/b");
  test.c = root.contains("c") ? parse_typed_matrix(root["c"], form->c, m, n, "/c")
                              : std::vector<uint32_t>(size_t(m * n), parse_element(form->c, json(0), "/c"));
  if (form->block_scale) {
    const int blocks = scale_blocks(*form);
    const uint32_t one = *encode(*form->stype, 1.0);
    test.scale_a = root.contains("scale_a") ? parse_typed_matrix(root["scale_a"], *form->stype, m, blocks, "/scale_a")
                                            : std::vector<uint32_t>(size_t(m * blocks), one);
    test.scale_b = root.contains("scale_b") ? parse_typed_matrix(root["scale_b"], *form->stype, blocks, n, "/scale_b")
                                            : std::vector<uint32_t>(size_t(blocks * n), one);
    if (root.contains("scale_ids")) {
      const json& ids = root["scale_ids"];
      if (!ids.is_object()) fail("/scale_ids", "an object {byte_a, thread_a, byte_b, thread_b} is expected");
      constexpr std::array kIds = {"byte_a", "thread_a", "byte_b", "thread_b"};
      no_unknown_keys(ids, kIds, "/scale_ids");
      // Any int: ids outside the scale vector are undefined-behaviour cases (labelled, never judged).
      const auto id = [&](const char* key) {
        return ids.contains(key) ? whole_number(ids[key], std::string("/scale_ids/") + key, INT32_MIN, INT32_MAX) : 0;
      };
      test.scale_ids = {id("byte_a"), id("thread_a"), id("byte_b"), id("thread_b")};
    }
  } else if (root.contains("scale_a") || root.contains("scale_b") || root.contains("scale_ids")) {
    fail(root.contains("scale_a") ? "/scale_a" : root.contains("scale_b") ? "/scale_b" : "/scale_ids", "the form has no block scale");
  }
  if (root.contains("metadata_noise")) {
    const json& noise = root["metadata_noise"];
    if (!noise.is_array() || noise.size() != 32) fail("/metadata_noise", "needs 32 words, one per lane");
    for (size_t i = 0; i < noise.size(); ++i) {
      const std::string at = "/metadata_noise/" + std::to_string(i);
      test.metadata_noise.push_back(parse_raw(text_of(noise[i], at), at));
    }
  }
  if (root.contains("expected_d")) file.expected_d = parse_typed_matrix(root["expected_d"], form->d, m, n, "/expected_d");
  if (root.contains("observed_d")) file.observed_d = parse_typed_matrix(root["observed_d"], form->d, m, n, "/observed_d");
  if (root.contains("expected_status")) {
    const std::string spelled = text_of(root["expected_status"], "/expected_status");
    file.expected_status = status_named(spelled);
    if (!file.expected_status) fail("/expected_status", "unknown status '" + spelled + "'");
  }
  if (root.contains("provenance")) {
    // Free-form where it came from (device, driver, seed, ...), but an object; its "origin" names the device that
    // observed the case (eval picks the model by it), so it is a string.
    const json& provenance = root["provenance"];
    if (!provenance.is_object()) fail("/provenance", std::string("an object is expected, not ") + provenance.type_name());
    if (provenance.contains("origin")) text_of(provenance["origin"], "/provenance/origin");
    if (provenance.contains("architecture")) {
      const std::string architecture = text_of(provenance["architecture"], "/provenance/architecture");
      if (!architecture_number(architecture)) fail("/provenance/architecture", "an architecture such as \"sm_90\" is expected, not \"" + architecture + "\"");
      file.architecture = architecture;
    }
    file.provenance = provenance;
  }
  try {
    check_shape(test);
  } catch (const std::invalid_argument& e) {
    fail("/", e.what());
  }
  return file;
}

CaseFile parse_case_file(const json& root) {
  try {
    return parse_fields(root);
  } catch (const json::exception& error) {
    // A field of the wrong JSON type (an object where a string belongs, ...): name it as a case-file error.
    throw CaseFileError(std::string("a field has the wrong JSON type: ") + error.what());
  }
}

CaseFile load_case_file(const std::filesystem::path& path) {
  json root;
  try {
    root = read_json_file(path, kMaxCaseFileBytes, "a case file");
  } catch (const InputFileError& error) {
    throw CaseFileError(error.what());
  }
  try {
    return parse_case_file(root);
  } catch (const CaseFileError& e) {
    throw CaseFileError(path.string() + ": " + e.what());
  }
}

json to_json(const CaseFile& file) {
  const MmaCase& test = file.test;
  const Form& form = *test.form;
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  json root;
  root["schema"] = kSchema;
  root["form"] = form.opcode;
  root["selector"] = test.selector;
  if (!file.comment.empty()) root["comment"] = file.comment;
  root["a_compressed"] = matrix_to_json(test.a_compressed, m, k / 2);
  json metadata = json::array();
  const int chunks = k / form.chunk_width;
  for (int r = 0; r < m; ++r) {
    json row = json::array();
    for (int c = 0; c < chunks; ++c) row.push_back(test.nibbles[size_t(r * chunks + c)]);
    metadata.push_back(row);
  }
  root["metadata"] = metadata;
  root["b"] = matrix_to_json(test.b, k, n);
  root["c"] = matrix_to_json(test.c, m, n);
  if (form.block_scale) {
    root["scale_a"] = matrix_to_json(test.scale_a, m, scale_blocks(form));
    root["scale_b"] = matrix_to_json(test.scale_b, scale_blocks(form), n);
    root["scale_ids"] = {{"byte_a", test.scale_ids.byte_a}, {"thread_a", test.scale_ids.thread_a},
                         {"byte_b", test.scale_ids.byte_b}, {"thread_b", test.scale_ids.thread_b}};
  }
  if (!test.metadata_noise.empty()) {
    json noise = json::array();
    for (uint32_t word : test.metadata_noise) noise.push_back(hex_code(word));
    root["metadata_noise"] = noise;
  }
  if (file.expected_d) root["expected_d"] = matrix_to_json(*file.expected_d, m, n);
  if (file.observed_d) root["observed_d"] = matrix_to_json(*file.observed_d, m, n);
  if (file.expected_status) root["expected_status"] = name(*file.expected_status);
  if (!file.provenance.is_null()) root["provenance"] = file.provenance;
  if (file.architecture) root["provenance"]["architecture"] = *file.architecture;
  return root;
}

void save_case_file(const CaseFile& file, const std::filesystem::path& path) {
  try {
    write_file_atomically(path, to_json(file).dump(1) + "\n");
  } catch (const OutputFileError& error) {
    throw CaseFileError(error.what());
  }
}

}  // namespace mmasp
