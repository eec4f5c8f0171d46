// The "verified on hardware" flags (oracle/verified_layouts.cpp) against their evidence: the committed run whose
// layout discovery confirmed them. A flag without evidence, or an sm_90 form without a flag, fails here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "oracle/layout.h"
#include "oracle/verified_layouts.h"

namespace mmasp {
namespace {

nlohmann::json evidence() {
  std::ifstream in(std::filesystem::path(MMASP_SOURCE_DIR) / layout_verification_record().evidence);
  EXPECT_TRUE(in.good()) << "missing evidence file " << layout_verification_record().evidence;
  return nlohmann::json::parse(in);
}

TEST(LayoutVerification, EveryFlagHasEvidenceForEverySelector) {
  const nlohmann::json run = evidence();
  std::map<std::string, std::set<int>> verified;
  for (const auto& layout : run["layouts"])
    if (layout["verified"].get<bool>()) verified[layout["form"]].insert(layout["selector"].get<int>());
  EXPECT_NE(layout_verification_record().device.find(run["environment"]["device"]["name"].get<std::string>()), std::string::npos);
  for (const auto& opcode : layout_verification_record().forms) {
    const Form* form = find_form(opcode);
    ASSERT_NE(form, nullptr) << opcode << " is not in the catalog";
    for (int selector : form->selectors)
      EXPECT_TRUE(verified[opcode].count(selector)) << opcode << " selector " << selector << " has no verified probe run";
    EXPECT_TRUE(layout_evidence(*form).verified_on_hardware);
  }
}

TEST(LayoutVerification, EverySm90FormIsVerifiedAndNothingElseIs) {
  const Target sm90 = *find_target("sm_90a");
  const std::set<std::string> flagged(layout_verification_record().forms.begin(), layout_verification_record().forms.end());
  for (const auto& form : instruction_space()) {
    const bool runs_on_sm90 = form.legal_on(sm90, form.version_for(sm90));
    EXPECT_EQ(flagged.count(form.opcode) == 1, runs_on_sm90) << form.opcode;
    EXPECT_EQ(layout_evidence(form).verified_on_hardware, runs_on_sm90) << form.opcode;
  }
}

}  // namespace
}  // namespace mmasp
