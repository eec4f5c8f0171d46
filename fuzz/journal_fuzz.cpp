// libFuzzer target: arbitrary bytes as a run's journal.jsonl (what --resume reads after a crash or a kill, so it may
// be cut anywhere). Reading must succeed or fail with a UsageError naming the file and line; a journal that was read
// must write back and read again to the same content.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "run/journal.h"
#include "run/usage_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  run::Journal journal;
  try {
    journal = run::parse_journal(std::string(reinterpret_cast<const char*>(data), size), "journal.jsonl");
  } catch (const UsageError& error) {
    if (std::string(error.what()).find("journal.jsonl") == std::string::npos) {
      std::cerr << "journal_fuzz: an error that does not name the file: " << error.what() << "\n";
      std::abort();
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "journal_fuzz: not a UsageError: " << error.what() << "\n";
    std::abort();
  }
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("mmasp-journal-fuzz-" + std::to_string(getpid()) + ".jsonl");
  { run::JournalWriter writer(path, journal); }
  const run::Journal again = run::read_journal(path);
  if (again.pairs.size() != journal.pairs.size() || again.identity != journal.identity ||
      again.compile.has_value() != journal.compile.has_value() || again.resumed != journal.resumed) {
    std::cerr << "journal_fuzz: the journal does not read back as written\n";
    std::abort();
  }
  for (size_t p = 0; p < again.pairs.size(); ++p)
    for (size_t r = 0; r < again.pairs[p].results.size(); ++r)
      if (to_json(again.pairs[p].results[r]) != to_json(journal.pairs[p].results[r])) {
        std::cerr << "journal_fuzz: a result does not read back as written\n";
        std::abort();
      }
  return 0;
}
