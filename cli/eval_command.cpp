// `mmasp eval`: what the oracle expects of a case file — D* and the bounds of each element — and, when the file holds
// an observed D, its verdict by both tiers (judge/evaluation.h): the spec tier, and the verified bit-exact model of the
// architecture the file says observed it (provenance.architecture), or the one --model names.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "oracle/case_file.h"
#include "oracle/model_record_file.h"
#include "oracle/numeric_model_table.h"
#include "oracle/text.h"
#include "reports/evaluation.h"

namespace mmasp::cli {
namespace {

// --model, parsed once: the architecture the case file names, none, or one the command line names.
enum class ModelSource { case_file, off, named };

struct Options {
  std::vector<std::string> files;
  std::string model_record;         // --model-record: the record's parameters of the form, before any table
  ModelSource model = ModelSource::case_file;
  std::string named_architecture;   // with ModelSource::named
};

// One file: exit 1 when its observed D fails.
int evaluate_file(const Options& o, const std::string& path) {
  CaseFile file;
  try {
    file = load_case_file(path);
  } catch (const CaseFileError& error) {
    throw UsageError(error.what());
  }
  std::optional<std::span<const uint32_t>> observed;
  if (file.observed_d) observed = std::span<const uint32_t>(*file.observed_d);
  std::optional<std::string> architecture;
  if (o.model == ModelSource::named) architecture = o.named_architecture;
  if (o.model == ModelSource::case_file) architecture = file.architecture;
  std::optional<ModelParameters> model;
  std::string model_name = architecture.value_or("off") + " bit-exact model";
  if (!o.model_record.empty()) {
    ModelRecordFile record;
    try {
      record = load_model_record(o.model_record);
    } catch (const ModelRecordError& error) {
      throw UsageError(std::string("--model-record: ") + error.what());
    }
    if (file.architecture && !file.architecture->empty() && record.architecture != *file.architecture)
      throw UsageError("--model-record: a record of " + record.architecture + "; the case was observed on " +
                       *file.architecture);
    const RecordedForm* recorded = record.find(file.test.form->opcode);
    if (!recorded) throw UsageError("--model-record: " + o.model_record + " has no model of " + file.test.form->opcode);
    model = recorded->parameters;
    model_name = "model record " + o.model_record + " (" + record.provenance() + ")";
  } else if (architecture) {
    model = verified_model(*file.test.form, *architecture);
    if (!model && o.model == ModelSource::named)
      throw UsageError("no verified bit-exact model of " + file.test.form->opcode + " on " + *architecture);
  }
  const Evaluation evaluation = evaluate(file.test, observed, model, model_name);
  if (o.files.size() > 1) std::cout << "== " << path << "\n";
  // A case file's comments are anyone's text: shown without the control characters a terminal would obey.
  for (const auto& line : file.comment) std::cout << "# " << printable(line) << "\n";
  std::cout << format_evaluation(file.test, evaluation, observed);
  return evaluation.verdict && is_failure(evaluation.verdict->status) ? kExitFail : kExitPass;
}

}  // namespace

Subcommand add_eval_command(CLI::App& mmasp) {
  auto o = std::make_shared<Options>();
  CLI::App* eval = mmasp.add_subcommand("eval", "print the expected D and its bounds for a case file, and judge its observed "
                                        "D (spec tier, and the verified bit-exact model of the device it came from)");
  eval->add_option("case", o->files, "case files (schema mmasp-case/1, docs/case-files.md)")->required();
  eval->add_option_function<std::string>(
           "--model",
           [o](const std::string& text) {
             o->model = text == "auto" ? ModelSource::case_file : text == "off" ? ModelSource::off : ModelSource::named;
             o->named_architecture = text;
           },
           "also compare the observed D with a verified bit-exact model: auto (the architecture the case file "
           "says it was observed on), off, or an architecture such as sm_90")
      ->default_str("auto");
  eval->add_option("--model-record", o->model_record,
                   "judge by this model record (mmasp characterize --save) instead of the built-in table");
  return {eval, [o](int, char**) {
            int status = kExitPass;
            for (const auto& path : o->files) status = std::max(status, evaluate_file(*o, path));
            return status;
          }};
}

}  // namespace mmasp::cli
