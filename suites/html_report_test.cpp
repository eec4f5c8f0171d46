// report.html in a real browser: headless Chromium loads a report and the test reads the DOM it rendered (after the
// report's own script ran) — totals, the failure row of a run with a failure, and filtering driven from the address.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "reports/run_report.h"

namespace mmasp {
namespace {

namespace fs = std::filesystem;

std::string chromium() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (fs::exists(candidate)) return candidate;
  return "";
}

// The DOM after the page's scripts ran, as Chromium serialises it.
std::string rendered_dom(const fs::path& html, const std::string& fragment) {
  const std::string command = chromium() + " --headless --no-sandbox --disable-gpu --dump-dom 'file://" + html.string() +
                              fragment + "' 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "";
  std::string out;
  char buffer[65536];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  pclose(pipe);
  return out;
}

// A real H100 run (the committed baseline) with one result turned into a failure.
RunRecord run_with_a_failure() {
  RunRecord run = load_run_record(fs::path(MMASP_SOURCE_DIR) / "evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json");
  for (auto& r : run.results)
    if (r.id == "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 sel=0 random") {
      r.status = Status::fail;
      r.failure = FailureRecord{"random #17", "repro: mmasp eval failures/case-17.json", "s32 mismatch: expected 7, observed 8",
                                {2, 3}, 7, 8, 12};
    }
  return run;
}

struct FormRows {
  int total = 0, visible = 0, visible_matching = 0;
};
FormRows form_rows(const std::string& dom, const std::string& must_contain) {
  FormRows rows;
  const std::regex row("<tr class=\"form-row\"([^>]*)>");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), row); it != std::sregex_iterator(); ++it) {
    const std::string attributes = (*it)[1];
    ++rows.total;
    if (attributes.find(" hidden") != std::string::npos) continue;
    ++rows.visible;
    rows.visible_matching += attributes.find(must_contain) != std::string::npos;
  }
  return rows;
}

class HtmlReport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (chromium().empty()) GTEST_SKIP() << "no Chromium (Debian package chromium; ./bootstrap.sh installs it)";
    dir_ = fs::temp_directory_path() / ("mmasp-html-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "report.html") << html_report(run_with_a_failure());
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(HtmlReport, TotalsAndTheVerdictComeFirst) {
  const std::string dom = rendered_dom(dir_ / "report.html", "");
  ASSERT_NE(dom.find("</html>"), std::string::npos) << "Chromium rendered nothing";
  EXPECT_NE(dom.find("<h1>FAIL</h1>"), std::string::npos);
  EXPECT_NE(dom.find("data-status=\"Fail\" data-count=\"1\""), std::string::npos);
  EXPECT_NE(dom.find("data-status=\"NotSupported\" data-count=\"210\""), std::string::npos);
  EXPECT_LT(dom.find("id=\"totals\""), dom.find("id=\"matrix\"")) << "totals before the matrix";
  EXPECT_LT(dom.find("id=\"failures\""), dom.find("id=\"matrix\"")) << "failures before the matrix";
}

TEST_F(HtmlReport, TheFailureHasARowWithItsRepro) {
  const std::string dom = rendered_dom(dir_ / "report.html", "");
  const auto row = dom.find("class=\"failure-row\" data-id=\"mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 sel=0 random\"");
  ASSERT_NE(row, std::string::npos);
  const std::string text = dom.substr(row, dom.find("</tr>", row) - row);
  EXPECT_NE(text.find("repro: mmasp eval failures/case-17.json"), std::string::npos) << text;
  EXPECT_NE(text.find("s32 mismatch"), std::string::npos) << text;
}

TEST_F(HtmlReport, FilteringFromTheAddressHidesTheOtherForms) {
  const FormRows all = form_rows(rendered_dom(dir_ / "report.html", ""), "");
  ASSERT_GT(all.total, 100);
  EXPECT_EQ(all.visible, all.total);
  const FormRows bf16 = form_rows(rendered_dom(dir_ / "report.html", "#filter=bf16"), ".bf16.");
  EXPECT_EQ(bf16.total, all.total);
  EXPECT_EQ(bf16.visible, 4) << "the H100 run has four bf16 forms";
  EXPECT_EQ(bf16.visible_matching, bf16.visible);
  const std::string failing_dom = rendered_dom(dir_ / "report.html", "#status=failing");
  const FormRows failing = form_rows(failing_dom, ".s32.s8.s8.s32\"");
  EXPECT_EQ(failing.visible, 1);
  EXPECT_EQ(failing.visible_matching, 1);
  EXPECT_NE(failing_dom.find("data-shown=\"1\""), std::string::npos);
}

}  // namespace
}  // namespace mmasp
