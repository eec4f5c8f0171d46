// Fragment and metadata layouts of mma.sp (PTX ISA 9.7.14.6.2): which lane, register and slot hold which matrix
// element, and which metadata bits describe which row chunk. One generic formula per operand, parameterised by the
// form's shape and container width, in the manner of CuTe's thread-value layouts; layout.cpp cites each formula.
#pragma once

#include <string>
#include <vector>

#include "oracle/instruction_space.h"

namespace mmasp {

enum class Operand { a_compressed, b, c, d };

// One element of one lane's fragment.
struct FragmentSlot {
  int lane = 0;
  int reg = 0;       // register index within the operand's vector
  int slot = 0;      // element index within the register, lowest bits first
};

struct MatrixCoord {
  int row = 0;
  int col = 0;
  bool operator==(const MatrixCoord&) const = default;
};

// Bits each element of an operand occupies in a .b32 register (its container: 8 for e2m1 under kind::f8f6f4).
int container_bits(const Form& form, Operand operand);

// Elements per lane of an operand, and the matrix it covers: A compressed is M x K/2, B is K x N, C and D are M x N.
int elements_per_lane(const Form& form, Operand operand);
int rows_of(const Form& form, Operand operand);
int cols_of(const Form& form, Operand operand);

// Element `index` (0 .. elements_per_lane-1) of `lane`. For A this is the compressed column; the logical column
// also depends on the metadata (see sparse.h).
MatrixCoord coord_of(const Form& form, Operand operand, int lane, int index);
FragmentSlot slot_of(const Form& form, Operand operand, int index, int lane);  // register and slot of an element

// Metadata: lane `lane`'s nibble `nibble` (bits 4*nibble+3 .. 4*nibble of e) describes chunk `chunk` of row `row`.
struct MetadataCell {
  int lane = 0;
  int nibble = 0;
  int row = 0;
  int chunk = 0;     // chunk c covers logical columns chunk_width*c .. chunk_width*c + chunk_width-1
};
// Every metadata nibble the instruction reads for this selector. Lanes not listed hold metadata the instruction
// ignores (9.7.14.6.1: "one or more threads store the metadata for the whole group").
std::vector<MetadataCell> metadata_cells(const Form& form, int selector);

// Block scale (PTX ISA 9.7.14.3, the scale-a-data and scale-b-data figures): lane `lane`'s byte `byte` of
// scale-a-data holds the scale of row `index` of A for K-block `block` (or, for B, of column `index`).
struct ScaleCell {
  int lane = 0;
  int byte = 0;
  int index = 0;
  int block = 0;
};
struct ScaleIds;
// Every scale byte the instruction reads for these ids; other lanes' and bytes' scale data is ignored.
std::vector<ScaleCell> scale_cells(const Form& form, Operand operand, const ScaleIds& ids);

// Whether the layouts of a form have been confirmed on hardware by layout discovery (oracle/verified_layouts.h).
struct LayoutEvidence {
  bool verified_on_hardware = false;
  std::string source;    // where the formulas come from
};
LayoutEvidence layout_evidence(const Form& form);

}  // namespace mmasp
