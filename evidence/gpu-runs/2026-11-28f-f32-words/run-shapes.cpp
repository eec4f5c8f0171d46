// Issue #28, twenty-first session: each profile's draw runs for a form, and the rounds a warp of 32 lanes takes for
// each (every lane one slot a round; the noise one output a lane). Built against a build directory's libraries:
//   cd build && clang++ -std=c++20 -O1 -I.. ../evidence/gpu-runs/2026-11-28f-f32-words/run-shapes.cpp -o /tmp/shapes \
//     libmmasp_run.a libmmasp_reports.a libmmasp_judge.a libmmasp_harness.a libmmasp_generators.a libmmasp_oracle.a \
//     libmmasp_resident_source.a libmmasp_generators.a -ldl libmmasp_oracle.a -lpthread
//   /tmp/shapes m16n8k64.row.col.f32.e4m3.e4m3.f32
#include <cstdio>
#include <string>
#include "harness/resident.h"
#include "oracle/numeric_model_table.h"
#include "oracle/instruction_space.h"
using namespace mmasp;
int main(int argc, char** argv) {
  for (const Form& form : instruction_space()) {
    if (form.opcode.find(argv[1]) == std::string::npos || !has_resident_kernel(form)) continue;
    auto model = verified_model(form, "sm_90");
    ResidentPairTables t = resident_pair_tables(form, form.selectors.front(), model ? &*model : nullptr);
    const auto& c = t.tables.cases;
    printf("%s\n", form.opcode.c_str());
    const char* names[] = {"profile", "nibbles", "A", "B", "C", "noise"};
    const uint32_t counts[] = {1, c.nibble_count, c.a_count, c.b_count, c.c_count, 32};
    for (int p = 0; p < 7; ++p) {
      unsigned rounds = 0, slots = 0;
      printf(" profile %d:", p);
      for (int r = 1; r < 6; ++r) {
        const auto& s = c.run_shapes[p][r];
        unsigned skip = s.from_word == 0 ? 1 : 0;
        // draw_run_of_width's slots (slot 0 skipped where the run starts on an output); whole outputs (width 64)
        // are one slot each (draw_run's first loop)
        unsigned lane_slots = c.run_width[p][r] == 64 ? counts[r] : s.slots - skip;
        unsigned rr = (lane_slots + 31) / 32;
        if (r == 5) rr = 1;  // noise: one per lane
        rounds += rr; slots += lane_slots;
        printf(" %s w%u n%u from%u slots%u rounds%u |", names[r], c.run_width[p][r], counts[r], s.from_word, lane_slots, rr);
      }
      printf(" total rounds %u, slots %u\n", rounds, slots);
    }
    break;
  }
}
