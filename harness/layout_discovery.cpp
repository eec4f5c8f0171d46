#include "harness/layout_discovery.h"

#include <functional>
#include <sstream>

#include "harness/fragment_packing.h"
#include "oracle/fragments.h"
#include "oracle/layout.h"
#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

constexpr size_t kMaxMismatchesShown = 8;

uint32_t one_code(ElemType type) { return info(type).is_float ? *encode(type, 1.0) : encode_integer(type, 1); }

double value_of(ElemType type, uint32_t code) {
  return info(type).is_float ? decode_to_double(type, code) : double(decode_integer(type, code));
}

// The two metadata patterns every chunk gets: stored positions (0,1) and (2,3) (tf32: element 0, element 1).
struct Pattern {
  uint32_t nibble;
  int first_element;   // the first logical element of a chunk that the pattern's first stored position covers
};
std::vector<Pattern> patterns(const Form& form) {
  const int unit = elements_per_position(form.sparsity);
  if (form.sparsity == Sparsity::one_of_two)
    return {{nibble_of(form.sparsity, {0, 0}), 0}, {nibble_of(form.sparsity, {1, 0}), 1}};
  return {{nibble_of(form.sparsity, {0, 1}), 0}, {nibble_of(form.sparsity, {2, 3}), 2 * unit}};
}

uint32_t every_nibble(uint32_t nibble) { return nibble * 0x11111111u; }

// A warp with every register zero, metadata `e` in every lane.
WarpRegisters blank(const Form& form, int selector, uint32_t e) {
  WarpRegisters w;
  w.selector = selector;
  for (auto& lane : w.lanes) {
    lane.a.assign(size_t(form.regs.a), 0);
    lane.b.assign(size_t(form.regs.b), 0);
    lane.c.assign(size_t(form.regs.c), 0);
    lane.e = e;
  }
  return w;
}


struct Probe {
  WarpRegisters registers;
  int lane = 0, reg = 0, slot = 0, pattern = 0;
};

// One probe per metadata pattern, lane, register and slot of one operand (`operand`: a or b): blank registers with
// the pattern's metadata, the other operand's background for that pattern, and a single one at that place.
std::vector<Probe> one_hot_probes(const Form& form, int selector, const std::vector<Pattern>& kinds, int regs,
                                  int width, uint32_t one, std::vector<uint32_t> LaneRegisters::*operand,
                                  const std::function<void(WarpRegisters&, size_t pattern)>& background) {
  std::vector<Probe> probes;
  for (size_t p = 0; p < kinds.size(); ++p)
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int reg = 0; reg < regs; ++reg)
        for (int slot = 0; slot < 32 / width; ++slot) {
          Probe probe{blank(form, selector, every_nibble(kinds[p].nibble)), lane, reg, slot, int(p)};
          background(probe.registers, p);
          (probe.registers.lanes[size_t(lane)].*operand)[size_t(reg)] = one << (width * slot);
          probes.push_back(std::move(probe));
        }
  return probes;
}

std::vector<std::vector<uint32_t>> run_probes(Backend& backend, const Form& form, int selector,
                                              const std::vector<Probe>& probes, std::vector<std::vector<uint32_t>>* raw = nullptr) {
  std::vector<uint32_t> records;
  for (const auto& probe : probes) pack_warp(form, probe.registers, records);
  const std::vector<uint32_t> output = backend.run(form, selector, records, uint32_t(probes.size()));
  std::vector<std::vector<uint32_t>> d(probes.size());
  const size_t words = kWarpLanes * size_t(form.regs.d);
  for (size_t i = 0; i < probes.size(); ++i) {
    d[i] = unpack_d(form, output.data() + i * words);
    if (raw) raw->emplace_back(output.begin() + long(i * words), output.begin() + long((i + 1) * words));
  }
  return d;
}

// The rows of D that are not all zero, and each row's columns read as the bits of an integer (column j = bit j).
std::vector<std::pair<int, int>> nonzero_rows(const Form& form, const std::vector<uint32_t>& d, bool* malformed) {
  std::vector<std::pair<int, int>> rows;
  for (int i = 0; i < form.shape.m; ++i) {
    int code = 0;
    bool any = false;
    for (int j = 0; j < form.shape.n; ++j) {
      const double v = value_of(form.d, d[size_t(i * form.shape.n + j)]);
      if (v == 0) continue;
      any = true;
      if (v == 1) code |= 1 << j;
      else *malformed = true;
    }
    if (any) rows.push_back({i, code});
  }
  return rows;
}

std::string where(const char* operand, int lane, int reg, int slot) {
  std::ostringstream out;
  out << operand << " lane " << lane << " register " << reg << " slot " << slot;
  return out.str();
}

void note(OperandDiscovery& result, bool match, const std::string& text) {
  ++result.probes;
  if (match) ++result.matched;
  else if (result.mismatches.size() < kMaxMismatchesShown) result.mismatches.push_back(text);
}

OperandDiscovery probe_a(Backend& backend, const Form& form, int selector) {
  OperandDiscovery result{"A", 0, 0, {}};
  const int width = container_bits(form, Operand::a_compressed), per_reg = 32 / width;
  const uint32_t one = to_container(form.a, form.kind, one_code(form.a));
  const auto kinds = patterns(form);
  // B[k][j] = bit j of (k + 1): the row of D that lights up is A's row, its bits are A's logical column + 1.
  MmaCase b_source = zero_case(form);
  for (int k = 0; k < form.shape.k; ++k)
    for (int j = 0; j < form.shape.n; ++j)
      b_source.b[size_t(k * form.shape.n + j)] = ((k + 1) >> j) & 1 ? one_code(form.b) : 0;
  const WarpRegisters b_registers = to_registers(b_source);
  const std::vector<Probe> probes =
      one_hot_probes(form, selector, kinds, form.regs.a, width, one, &LaneRegisters::a, [&](WarpRegisters& r, size_t) {
        for (int l = 0; l < kWarpLanes; ++l) r.lanes[size_t(l)].b = b_registers.lanes[size_t(l)].b;
      });
  const auto d = run_probes(backend, form, selector, probes);
  for (size_t i = 0; i < probes.size(); ++i) {
    const Probe& probe = probes[i];
    const MatrixCoord compressed = coord_of(form, Operand::a_compressed, probe.lane, probe.reg * per_reg + probe.slot);
    std::vector<uint32_t> nibbles(size_t(form.shape.k / form.chunk_width), kinds[size_t(probe.pattern)].nibble);
    const int model_col = logical_column(form, nibbles.data(), compressed.col);
    bool malformed = false;
    const auto rows = nonzero_rows(form, d[i], &malformed);
    const bool match = !malformed && rows.size() == 1 && rows[0].first == compressed.row && rows[0].second == model_col + 1;
    std::ostringstream text;
    text << where("A", probe.lane, probe.reg, probe.slot) << " (metadata pattern " << probe.pattern << "): model row "
         << compressed.row << " column " << model_col << "; hardware ";
    if (rows.size() == 1 && !malformed) text << "row " << rows[0].first << " column " << rows[0].second - 1;
    else text << rows.size() << " rows lit" << (malformed ? ", values other than 0/1" : "");
    note(result, match, text.str());
  }
  return result;
}

OperandDiscovery probe_b(Backend& backend, const Form& form, int selector) {
  OperandDiscovery result{"B", 0, 0, {}};
  const int width = container_bits(form, Operand::b), per_reg = 32 / width;
  const uint32_t one = to_container(form.b, form.kind, one_code(form.b));
  const auto kinds = patterns(form);
  std::vector<WarpRegisters> a_sources;
  for (size_t p = 0; p < kinds.size(); ++p) {
    // A's stored element s of row i = bit i of (s + 1): the column of D that lights up is B's column, its bits
    // down the rows name the stored element, and so (through the pattern) B's row.
    MmaCase a_source = zero_case(form);
    std::fill(a_source.nibbles.begin(), a_source.nibbles.end(), kinds[p].nibble);
    for (int i = 0; i < form.shape.m; ++i)
      for (int s = 0; s < form.shape.k / 2; ++s)
        a_source.a_compressed[size_t(i * form.shape.k / 2 + s)] = ((s + 1) >> i) & 1 ? one_code(form.a) : 0;
    a_sources.push_back(to_registers(a_source));
  }
  const std::vector<Probe> probes =
      one_hot_probes(form, selector, kinds, form.regs.b, width, one, &LaneRegisters::b, [&](WarpRegisters& r, size_t p) {
        for (int l = 0; l < kWarpLanes; ++l) r.lanes[size_t(l)].a = a_sources[p].lanes[size_t(l)].a;
      });
  const auto d = run_probes(backend, form, selector, probes);
  for (size_t i = 0; i < probes.size(); ++i) {
    const Probe& probe = probes[i];
    const MatrixCoord model = coord_of(form, Operand::b, probe.lane, probe.reg * per_reg + probe.slot);
    std::vector<uint32_t> nibbles(size_t(form.shape.k / form.chunk_width), kinds[size_t(probe.pattern)].nibble);
    // Which stored element (if any) multiplies B row model.row under this pattern.
    int model_stored = -1;
    for (int s = 0; s < form.shape.k / 2; ++s)
      if (logical_column(form, nibbles.data(), s) == model.row) model_stored = s;
    // Read D column by column: the lit column, and its bits down the rows.
    int lit_columns = 0, lit_column = -1, code = 0;
    bool malformed = false;
    for (int j = 0; j < form.shape.n; ++j) {
      int column_code = 0;
      bool any = false;
      for (int r = 0; r < form.shape.m; ++r) {
        const double v = value_of(form.d, d[i][size_t(r * form.shape.n + j)]);
        if (v == 0) continue;
        any = true;
        if (v == 1) column_code |= 1 << r;
        else malformed = true;
      }
      if (any) { ++lit_columns; lit_column = j; code = column_code; }
    }
    bool match;
    std::ostringstream text;
    text << where("B", probe.lane, probe.reg, probe.slot) << " (metadata pattern " << probe.pattern << "): model row "
         << model.row << " column " << model.col;
    if (model_stored < 0) {
      match = lit_columns == 0 && !malformed;  // a row the pattern does not select must not contribute
      text << " (not selected by the pattern); hardware " << (match ? "nothing" : "lit column " + std::to_string(lit_column));
    } else {
      match = !malformed && lit_columns == 1 && lit_column == model.col && code == model_stored + 1;
      text << "; hardware column " << lit_column << " stored element " << code - 1;
    }
    note(result, match, text.str());
  }
  return result;
}

OperandDiscovery probe_c(Backend& backend, const Form& form, int selector) {
  OperandDiscovery result{"C/D", 0, 0, {}};
  const int width = container_bits(form, Operand::c), per_reg = 32 / width;
  const int d_width = container_bits(form, Operand::d), d_per_reg = 32 / d_width;
  const uint32_t one = one_code(form.c);
  std::vector<Probe> probes;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int reg = 0; reg < form.regs.c; ++reg)
      for (int slot = 0; slot < per_reg; ++slot) {
        Probe probe{blank(form, selector, every_nibble(patterns(form)[0].nibble)), lane, reg, slot, 0};
        probe.registers.lanes[size_t(lane)].c[size_t(reg)] = one << (width * slot);
        probes.push_back(std::move(probe));
      }
  std::vector<std::vector<uint32_t>> raw;
  run_probes(backend, form, selector, probes, &raw);
  const uint32_t d_mask = d_width == 32 ? ~0u : (1u << d_width) - 1;
  for (size_t i = 0; i < probes.size(); ++i) {
    const Probe& probe = probes[i];
    const MatrixCoord model = coord_of(form, Operand::c, probe.lane, probe.reg * per_reg + probe.slot);
    int lit = 0, lit_lane = -1, lit_index = -1;
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int reg = 0; reg < form.regs.d; ++reg)
        for (int slot = 0; slot < d_per_reg; ++slot) {
          const uint32_t code = (raw[i][size_t(lane * form.regs.d + reg)] >> (d_width * slot)) & d_mask;
          if (value_of(form.d, code) != 0) { ++lit; lit_lane = lane; lit_index = reg * d_per_reg + slot; }
        }
    const bool match = lit == 1 && coord_of(form, Operand::d, lit_lane, lit_index) == model;
    std::ostringstream text;
    text << where("C", probe.lane, probe.reg, probe.slot) << ": model element (" << model.row << ", " << model.col
         << "); hardware " << lit << " D slot(s) lit";
    if (lit == 1) {
      const MatrixCoord at = coord_of(form, Operand::d, lit_lane, lit_index);
      text << ", lane " << lit_lane << " element " << lit_index << " = model (" << at.row << ", " << at.col << ")";
    }
    note(result, match, text.str());
  }
  return result;
}

OperandDiscovery probe_metadata(Backend& backend, const Form& form, int selector) {
  OperandDiscovery result{"metadata", 0, 0, {}};
  const auto kinds = patterns(form);
  const uint32_t base = every_nibble(kinds[0].nibble);
  // A all ones; B[k][j] = bit j of (chunk + 1) on the first element the second pattern selects, else 0: under the
  // base pattern D is zero, and a nibble switched to the second pattern lights its row with its chunk's number.
  MmaCase source = zero_case(form);
  for (int k = 0; k < form.shape.k; ++k)
    if (k % form.chunk_width == kinds[1].first_element)
      for (int j = 0; j < form.shape.n; ++j)
        source.b[size_t(k * form.shape.n + j)] = ((k / form.chunk_width + 1) >> j) & 1 ? one_code(form.b) : 0;
  const WarpRegisters b_registers = to_registers(source);
  const int width = container_bits(form, Operand::a_compressed);
  uint32_t all_ones_a = 0;
  for (int slot = 0; slot < 32 / width; ++slot) all_ones_a |= to_container(form.a, form.kind, one_code(form.a)) << (width * slot);
  std::vector<Probe> probes;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int nibble = 0; nibble < 8; ++nibble) {
      Probe probe{blank(form, selector, base), lane, 0, nibble, 1};
      for (int l = 0; l < kWarpLanes; ++l) {
        probe.registers.lanes[size_t(l)].b = b_registers.lanes[size_t(l)].b;
        std::fill(probe.registers.lanes[size_t(l)].a.begin(), probe.registers.lanes[size_t(l)].a.end(), all_ones_a);
      }
      uint32_t& e = probe.registers.lanes[size_t(lane)].e;
      e = (e & ~(0xFu << (4 * nibble))) | (kinds[1].nibble << (4 * nibble));
      probes.push_back(std::move(probe));
    }
  const auto d = run_probes(backend, form, selector, probes);
  const auto cells = metadata_cells(form, selector);
  for (size_t i = 0; i < probes.size(); ++i) {
    const Probe& probe = probes[i];
    int model_row = -1, model_chunk = -1;
    for (const auto& cell : cells)
      if (cell.lane == probe.lane && cell.nibble == probe.slot) { model_row = cell.row; model_chunk = cell.chunk; }
    bool malformed = false;
    const auto rows = nonzero_rows(form, d[i], &malformed);
    bool match;
    std::ostringstream text;
    text << "metadata lane " << probe.lane << " nibble " << probe.slot << " (selector " << selector << "): model ";
    if (model_row < 0) {
      match = rows.empty();
      text << "ignored; hardware " << (rows.empty() ? "ignored" : "row " + std::to_string(rows[0].first) + " chunk " + std::to_string(rows[0].second - 1));
    } else {
      match = !malformed && rows.size() == 1 && rows[0].first == model_row && rows[0].second == model_chunk + 1;
      text << "row " << model_row << " chunk " << model_chunk << "; hardware ";
      if (rows.size() == 1) text << "row " << rows[0].first << " chunk " << rows[0].second - 1;
      else text << rows.size() << " rows lit";
    }
    note(result, match, text.str());
  }
  return result;
}

}  // namespace

bool LayoutDiscovery::all_match() const {
  if (!error.empty() || operands.empty()) return false;
  for (const auto& operand : operands)
    if (operand.matched != operand.probes || operand.probes == 0) return false;
  return true;
}

LayoutDiscovery discover_layout(Backend& backend, const Form& form, int selector) {
  LayoutDiscovery discovery;
  discovery.form = &form;
  discovery.selector = selector;
  try {
    discovery.operands.push_back(probe_a(backend, form, selector));
    discovery.operands.push_back(probe_b(backend, form, selector));
    discovery.operands.push_back(probe_c(backend, form, selector));
    discovery.operands.push_back(probe_metadata(backend, form, selector));
  } catch (const std::exception& error) {
    discovery.error = error.what();
  }
  return discovery;
}

}  // namespace mmasp
