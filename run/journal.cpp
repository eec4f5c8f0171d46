#include "run/journal.h"

#include <sstream>

#include "oracle/input_file.h"
#include "run/usage_error.h"

namespace mmasp::run {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json header_json(const Journal& journal) {
  return {{"journal", kJournalSchema}, {"identity", journal.identity}, {"started", journal.started},
          {"host", journal.host},      {"command", journal.command}};
}

json pair_json(const JournalPair& pair) {
  json results = json::array();
  for (const auto& result : pair.results) results.push_back(to_json(result));
  json line = {{"form", pair.form}, {"selector", pair.selector}, {"elapsed_seconds", pair.elapsed_seconds}, {"results", results}};
  if (pair.layout) line["layout"] = to_json(*pair.layout);
  if (pair.compile_path) line["compile_path"] = to_json(*pair.compile_path);
  return {{"pair", line}};
}

JournalPair pair_from(const json& line) {
  if (!line.is_object() || !line.contains("form") || !line["form"].is_string() || !line.contains("selector") ||
      !line["selector"].is_number_integer() || !line.contains("results") || !line["results"].is_array())
    throw RunRecordError("/pair: an object with form, selector and results is expected");
  JournalPair pair;
  pair.form = line["form"].get<std::string>();
  pair.selector = line["selector"].get<int>();
  pair.elapsed_seconds = line.value("elapsed_seconds", 0.0);
  for (size_t i = 0; i < line["results"].size(); ++i) {
    try {
      pair.results.push_back(result_record_from_json(line["results"][i]));
    } catch (const RunRecordError& error) {
      throw RunRecordError("/pair/results/" + std::to_string(i) + error.what());
    }
  }
  if (line.contains("layout")) pair.layout = layout_record_from_json(line["layout"]);
  if (line.contains("compile_path")) pair.compile_path = compile_path_from_json(line["compile_path"]);
  return pair;
}

}  // namespace

Journal read_journal(const fs::path& path) {
  if (!fs::exists(path)) throw UsageError("--resume: no " + path.string() + " (nothing to resume: was the run started with this --out?)");
  try {
    return parse_journal(read_input_file(path, kMaxRunFileBytes, "a journal"), path);
  } catch (const InputFileError& error) {
    throw UsageError(error.what());
  }
}

Journal parse_journal(const std::string& content, const fs::path& path) {
  std::vector<std::string> lines;
  std::istringstream in(content);
  for (std::string text; std::getline(in, text);) lines.push_back(text);
  Journal journal;
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string where = path.string() + ":" + std::to_string(n + 1) + ": ";
    const json line = json::parse(lines[n], nullptr, false);
    if (line.is_discarded()) {
      // The write a kill interrupted: only ever the last line.
      if (n + 1 == lines.size() && n > 0) {
        journal.dropped_cut_off_line = true;
        break;
      }
      throw UsageError(where + "not a JSON line (a journal is only ever cut off at its end)");
    }
    if (n == 0) {
      if (!line.is_object() || line.value("journal", "") != kJournalSchema || !line.contains("identity") ||
          !line["identity"].is_object())
        throw UsageError(where + "not an mmasp journal (\"journal\": \"" + std::string(kJournalSchema) + "\" and an identity are expected)");
      journal.identity = line["identity"];
      journal.started = line.value("started", "");
      journal.host = line.value("host", "");
      journal.command = line.value("command", "");
      continue;
    }
    try {
      if (!line.is_object() || line.size() != (line.contains("compile_matrix") ? 2u : 1u))
        throw RunRecordError("one of resumed, compile or pair is expected");
      if (line.contains("resumed")) journal.resumed.push_back(line["resumed"].is_string() ? line["resumed"].get<std::string>() : "");
      else if (line.contains("compile")) journal.compile = compile_record_from_json(line);
      else if (line.contains("pair")) journal.pairs.push_back(pair_from(line["pair"]));
      else throw RunRecordError("unknown line: one of resumed, compile or pair is expected");
    } catch (const RunRecordError& error) {
      throw UsageError(where + error.what());
    } catch (const json::exception& error) {
      throw UsageError(where + error.what());
    }
  }
  if (lines.empty()) throw UsageError(path.string() + ": empty (the run was killed before it began?)");
  return journal;
}

std::string identity_difference(const json& interrupted, const json& now) {
  for (const auto& [key, value] : now.items()) {
    const json was = interrupted.contains(key) ? interrupted[key] : json();
    if (was != value) return key + ": " + value.dump() + " now, " + (was.is_null() ? "absent" : was.dump()) + " in the interrupted run";
  }
  for (const auto& [key, value] : interrupted.items())
    if (!now.contains(key)) return key + ": absent now, " + value.dump() + " in the interrupted run";
  return "";
}

JournalWriter::JournalWriter(const fs::path& path, const Journal& content) : path_(path) {
  fs::path temporary = path;
  temporary += ".rewrite";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << header_json(content).dump() << "\n";
    for (const auto& when : content.resumed) out << json{{"resumed", when}}.dump() << "\n";
    if (content.compile) out << to_json(*content.compile).dump() << "\n";
    for (const auto& pair : content.pairs) out << pair_json(pair).dump() << "\n";
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
  }
  fs::rename(temporary, path);
  out_.open(path, std::ios::app);
  if (!out_) throw std::runtime_error("cannot append to " + path.string());
}

void JournalWriter::line(const json& value) {
  out_ << value.dump() << "\n";
  if (!out_.flush()) throw std::runtime_error("cannot append to " + path_.string());
}

void JournalWriter::resumed(const std::string& when) { line({{"resumed", when}}); }
void JournalWriter::compile(const CompileRecord& compile) { line(to_json(compile)); }
void JournalWriter::pair(const JournalPair& pair) { line(pair_json(pair)); }

}  // namespace mmasp::run
