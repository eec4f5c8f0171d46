#include "resident/resident.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "generators/bulk.h"
#include "harness/backend.h"
#include "resident/resident_source.h"
#include "oracle/fragments.h"
#include "oracle/layout.h"
#include "oracle/number_format.h"
#include "oracle/numeric_model.h"
#include "oracle/reference.h"

// The kernel images, embedded at build time (CMakeLists.txt: resident_image.S); empty in builds without nvcc. Each
// PTX image ends with a NUL (the driver reads PTX as a C string).
extern "C" {
extern const unsigned char mmasp_resident_sm_90a[];
extern const unsigned char mmasp_resident_sm_90a_end[];
extern const unsigned char mmasp_resident_compute_89[];
extern const unsigned char mmasp_resident_compute_89_end[];
extern const unsigned char mmasp_resident_compute_80[];
extern const unsigned char mmasp_resident_compute_80_end[];
}

namespace mmasp {
namespace {

constexpr Operand kOperands[4] = {Operand::a_compressed, Operand::b, Operand::c, Operand::d};
constexpr unsigned kThreads = 128;        // the general kernel's __launch_bounds__ (resident_source.cpp)
constexpr unsigned kLeanThreads = kResidentLeanThreads;   // resident_source.h: each lean kernel's __launch_bounds__
constexpr unsigned kLean768Threads = kResidentLean768Threads;

ElemType type_of(const Form& form, int operand) {
  switch (operand) {
    case resident::operand_a: return form.a;
    case resident::operand_b: return form.b;
    case resident::operand_c: return form.c;
    default: return form.d;
  }
}

bool signed_integer(ElemType type) { return type == ElemType::s8 || type == ElemType::s4 || type == ElemType::s32; }

void point_at_host_copies(ResidentPairTables& out) {
  out.cases.tables.arena = out.cases.arena.data();
  out.cases.tables.samplers = out.cases.samplers.data();
  out.tables.cases = out.cases.tables;
  out.tables.layouts = out.layouts.data();
}

}  // namespace

uint32_t resident_shared_words(const resident::PairTables& p, WarpLayout layout) {
  switch (layout) {
    case WarpLayout::narrow_over_codes: return resident::narrow_over_codes_shared_words(p.cases);
    case WarpLayout::fp8: return resident::fp8_shared_words(p.cases);
    case WarpLayout::case_then_words: break;
  }
  return resident::shared_words(p);
}

ResidentPairTables resident_pair_tables(const Form& form, int selector, const ModelParameters* model, ResidentImage image) {
  std::string why;
  if (!has_resident_kernel(form, &why, image)) throw std::invalid_argument(form.opcode + ": no resident kernel: " + why);
  const bool specialised = holds_specialised_kernels(image);
  if (std::find(form.selectors.begin(), form.selectors.end(), selector) == form.selectors.end())
    throw std::invalid_argument(form.opcode + ": selector " + std::to_string(selector) + " is not one the form defines");
  ResidentPairTables out;
  out.cases = gen::portable_case_tables(form);
  resident::PairTables& t = out.tables;
  t.selector = selector;
  t.instruction = uint32_t(resident_instruction_id(form, selector));
  for (int operand = 0; operand < 4; ++operand) {
    const Operand which = kOperands[operand];
    const ElemType type = type_of(form, operand);
    if (to_container(type, form.kind, 1) != 1) throw std::invalid_argument(form.opcode + ": a shifted container");
    t.container_bits[operand] = uint32_t(container_bits(form, which));
    if (t.container_bits[operand] != 4 && t.container_bits[operand] != 8 && t.container_bits[operand] != 16 &&
        t.container_bits[operand] != 32)
      throw std::invalid_argument(form.opcode + ": a container of neither 4, 8, 16 nor 32 bits (element_of)");
    t.per_lane[operand] = uint32_t(elements_per_lane(form, which));
    if (t.per_lane[operand] * t.container_bits[operand] > 4 * 32)
      throw std::invalid_argument(form.opcode + ": more than four registers per operand");
    t.layout[operand] = uint32_t(out.layouts.size());
    const int cols = cols_of(form, which);
    out.layouts.resize(out.layouts.size() + size_t(kWarpLanes) * t.per_lane[operand]);
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int e = 0; e < elements_per_lane(form, which); ++e) {
        const MatrixCoord at = coord_of(form, which, lane, e);
        out.layouts[t.layout[operand] + resident::layout_cell(uint32_t(e), uint32_t(lane))] = uint32_t(at.row * cols + at.col);
      }
  }
  t.metadata = uint32_t(out.layouts.size());
  out.layouts.resize(out.layouts.size() + 32 * 8, resident::kNoNibble);
  const int chunks = form.shape.k / form.chunk_width;
  for (const MetadataCell& cell : metadata_cells(form, selector)) {
    out.layouts[t.metadata + resident::layout_cell(uint32_t(cell.nibble), uint32_t(cell.lane))] = uint32_t(cell.row * chunks + cell.chunk);
    t.holds_metadata |= 1u << cell.lane;
  }
  if (form.is_integer()) {
    t.judge = resident::Judge::integer;
    t.a_bits = uint32_t(info(form.a).bits);
    t.b_bits = uint32_t(info(form.b).bits);
    t.a_signed = signed_integer(form.a);
    t.b_signed = signed_integer(form.b);
    t.satfinite = form.satfinite;
  } else {
    if (!model) throw std::invalid_argument(form.opcode + ": a float form needs its model parameters");
    t.judge = resident::Judge::float_model;
    t.model = *model;
    t.a_format = model_operand_format(form.a, *model);
    t.b_format = model_operand_format(form.b, *model);
    t.c_format = model_operand_format(form.c, *model);
    t.f16_d = form.d == ElemType::f16;
    if (resident::narrow_pair(t)) {   // the same model, through its narrow arithmetic
      t.judge = resident::Judge::narrow_model;
      t.narrow_choices = resident::Sm90Choices::matches(t.model) ? 0 : 1;
    }
  }
  point_at_host_copies(out);
  t.integer_dense = resident::integer_dense_fits(t);   // reads the case tables (their shape and metadata columns)
  // The dense kernels spread by byte permutes (spread_integer_dense_over_codes), from the selectors' table.
  if (t.integer_dense && resident::dense_selectors_fit(t.cases)) {
    t.dense_selectors = uint32_t(out.layouts.size());
    out.layouts.resize(out.layouts.size() + 2 * resident::kDenseSelectorNibbles);
    for (uint32_t nibble = 0; nibble < resident::kDenseSelectorNibbles; ++nibble)
      resident::dense_chunk_selectors(t.cases, nibble, out.layouts.data() + t.dense_selectors + 2 * nibble);
    point_at_host_copies(out);   // the layouts grew
  }
  // The dense bytes over the codes, in the dense kernels, where that measured faster: m16n8k128 4-bit, whose case
  // alone then sizes a warp's shared memory (more warps per multiprocessor); the m16n8k64 forms lost by it, since it
  // also changes their kernel's registers. A choice of speed, not of correctness: any pair that fits is judged alike
  // either way.
  // Their kernels' case dimensions are constants (kResidentDenseDims).
  t.dense_over_codes = specialised && t.integer_dense && resident::dense_over_codes_fits(t.cases) && t.cases.k >= 128 &&
                       t.dense_selectors != resident::kNoTable && gen::portable::same_dims(t.cases, kResidentDenseDims);
  const uint32_t stored = t.cases.k / 2;
  t.narrow_accumulator = resident::narrow_accumulator_of(t);
  // The compile-time walks of the kernel take C's and D's formats as constants too (narrow_accumulator).
  if (t.judge == resident::Judge::narrow_model && t.narrow_choices == 0 && t.narrow_accumulator != 0 &&
      uint32_t(t.model.block_products) >= stored && (stored == 4 || stored == 8 || stored == 16) &&
      model::narrow::products_fit_32(int(stored), t.model.fraction_bits))
    t.narrow_one_block = stored;
  // Narrow words over the codes where the words after the case leave fewer than 32 warps on sm_90 (227 KB of shared
  // memory a block, cudaDevAttrMaxSharedMemoryPerBlockOptin on the H100 and H200): fp8 k64 (whose kernel also puts A's
  // words over the nibbles, fp8_shared_words: more warps fit; its draw's table lookups lose L1 to them, but judging
  // gains more) and the m16n8k32 f16 and bf16 forms (whose draws need L1 left beside their warps' words).
  constexpr uint32_t kWordsFor32Warps = 227u * 1024u / 4u / 32u;
  t.narrow_over_codes = specialised && t.judge == resident::Judge::narrow_model && resident::narrow_over_codes_fits(t.cases) &&
                        resident::shared_words(t) > kWordsFor32Warps;
  t.narrow_pairs = resident::narrow_pairs_fit(t);   // reads the layouts (D's cells)
  // decode_narrow's tables, where the format has one; after a table that holds every code unpadded, for a format
  // that f32 words fit, the same codes' f32 words (narrow_f32_table finds them right after).
  bool f32_tables = t.judge == resident::Judge::narrow_model;
  if (t.judge == resident::Judge::narrow_model) {
    const model::OperandFormat* formats[2] = {&t.a_format, &t.b_format};
    for (int operand = 0; operand < 2; ++operand) {
      resident::NarrowTable& table = t.narrow_tables[operand];
      if (!resident::narrow_table_fits(*formats[operand], &table.mantissa_bits, &table.index_bits)) {
        f32_tables = false;
        continue;
      }
      table.offset = uint32_t(out.layouts.size());
      table.pad_bits = uint32_t(formats[operand]->low_pad_bits);
      out.layouts.resize(out.layouts.size() + resident::narrow_table_words(table.index_bits));
      resident::narrow_table(*formats[operand], t.model.subnormal_inputs, table.mantissa_bits, table.index_bits,
                             out.layouts.data() + table.offset);
      if (table.mantissa_bits != 0 || table.pad_bits != 0 ||
          !model::narrow::f32_words_fit(*formats[operand], t.model.fraction_bits)) {
        f32_tables = false;
        continue;
      }
      const uint32_t f32_offset = uint32_t(out.layouts.size());
      out.layouts.resize(out.layouts.size() + resident::narrow_table_words(table.index_bits));
      if (resident::narrow_f32_table(t, operand).offset != f32_offset)
        throw std::logic_error(form.opcode + ": the f32 words' table is not where narrow_f32_table looks");
      resident::narrow_table(*formats[operand], t.model.subnormal_inputs, table.mantissa_bits, table.index_bits,
                             out.layouts.data() + f32_offset, true);
    }
    point_at_host_copies(out);   // the layouts grew
  }
  // The fp8 kernel's pairs: the fp8 record's blocks, its layout (A's words over the nibbles, B's over the codes), and
  // f32 words (both operands' f32 tables, their tags in 14 bits; a block's result chained to the next as an f32 word,
  // f32_accumulator_fits), the kernel's case dimensions (kResidentFp8Dims, constants there), cells and tables that its
  // copies in shared memory hold (fp8_shared_tables_fit), and an A it packs by 16-byte loads (fp8_a_bytes_contiguous).
  // Only pairs that kernel takes have the flag, so that no other lean kernel meets a pair whose judge reads f32 words.
  t.narrow_fp8_blocks = f32_tables && t.narrow_choices == 1 && t.narrow_accumulator != 0 && stored == 32 &&
                        t.model.block_products == 16 && t.model.block_interleave == 2 &&
                        model::narrow::products_fit_32(16, t.model.fraction_bits) &&
                        model::narrow::f32_accumulator_fits(t.model.fraction_bits) && t.narrow_over_codes &&
                        resident::fp8_words_over_nibbles_fit(t.cases, 32) &&
                        resident::narrow_tag(t.cases, t.cases.k - 1) <= model::narrow::kF32TagMask &&
                        gen::portable::same_dims(t.cases, kResidentFp8Dims) && resident::fp8_shared_tables_fit(t) &&
                        resident::fp8_a_bytes_contiguous(t);
  return out;
}

std::optional<resident::Fault> resident_fault(const Fault& fault, const Form& form, const ModelParameters* truth,
                                              std::string* why) {
  auto no = [&](const std::string& reason) -> std::optional<resident::Fault> {
    if (why) *why = reason;
    return std::nullopt;
  };
  resident::Fault out;
  if (fault.kind == FaultKind::numerics) {
    if (!truth || form.is_integer()) return no("a numerics fault needs a float form with a model");
    out.kind = resident::Fault::numerics;
    out.changed = faulty_parameters(fault, form, *truth);
    return out;
  }
  if (fault.output_change) {
    const Fault::OutputChange& change = *fault.output_change;
    out.kind = resident::Fault::output;
    out.element = uint32_t(change.element);
    const int bits = info(form.d).bits;
    out.xor_mask = change.bit < 0 ? 1u << (bits - 1) : 1u << (change.bit % bits);
    out.set = change.to_zero;
    out.set_value = 0;
    out.one_in = change.one_in;
    out.salt = 0x5eed;
    return out;
  }
  if (fault.register_change) {
    out.kind = resident::Fault::registers;
    out.swap_operand = fault.register_change->swap_operand;
    out.rotate_operand = fault.register_change->rotate_operand;
    out.e_xor = fault.register_change->e_xor;
    return out;
  }
  return no("the fault is not said as data the kernel can apply (only on the host path)");
}

// --- The GPU. ------------------------------------------------------------------------------------------------------

namespace {

// An image's bytes, as addresses: compared as arrays, the compiler may take the two symbols for distinct objects and
// fold the answer.
struct ImageBytes {
  const unsigned char* begin;
  size_t size;
};
ImageBytes image_bytes(ResidentImage image) {
  const auto span = [](const unsigned char* begin, const unsigned char* end) {
    const auto b = reinterpret_cast<uintptr_t>(begin), e = reinterpret_cast<uintptr_t>(end);
    return ImageBytes{begin, e > b ? size_t(e - b) : 0};
  };
  switch (image) {
    case ResidentImage::sm90a_cubin: return span(mmasp_resident_sm_90a, mmasp_resident_sm_90a_end);
    case ResidentImage::compute89_ptx: return span(mmasp_resident_compute_89, mmasp_resident_compute_89_end);
    case ResidentImage::compute80_ptx: return span(mmasp_resident_compute_80, mmasp_resident_compute_80_end);
  }
  return {nullptr, 0};
}

ResidentImage image_for(int sm, ResidentImageChoice choice) {
  if (sm < 80) throw std::runtime_error("the resident kernels need sm_80 or newer; this device is sm_" + std::to_string(sm));
  if (choice == ResidentImageChoice::cubin && sm != 90)
    throw std::runtime_error("--resident-image cubin: the cubin is built for sm_90a; this device is sm_" + std::to_string(sm));
  if (sm == 90 && choice != ResidentImageChoice::ptx) return ResidentImage::sm90a_cubin;
  return sm >= 89 ? ResidentImage::compute89_ptx : ResidentImage::compute80_ptx;
}

}  // namespace

std::string_view name(ResidentImageChoice choice) {
  switch (choice) {
    case ResidentImageChoice::automatic: return "auto";
    case ResidentImageChoice::cubin: return "cubin";
    case ResidentImageChoice::ptx: return "ptx";
  }
  return "auto";
}

bool ResidentPath::built() {
  for (const ResidentImage image : kResidentImages)
    if (image_bytes(image).size == 0) return false;
  return true;
}

bool ResidentPath::covers(const Form& form, std::string* why) const {
  if (!has_resident_kernel(form, why, image_)) return false;
  const std::optional<Target> target = target_for_sm(device_.sm());
  if (target && !form.legal_on(*target, form.version_for(*target))) {
    if (why) *why = "not legal on " + target->name;
    return false;
  }
  return true;
}

ResidentPath::ResidentPath(CudaDevice& device, ResidentImageChoice choice, const std::string& image_file,
                           const ModuleStore* store)
    : device_(device) {
  if (!built()) throw std::runtime_error("this build has no GPU-resident kernel (nvcc was not found at build time)");
  image_ = image_for(device.sm(), choice);
  // The image as loaded: the file's contents, or the embedded image in place (the cubin is tens of MB: not copied).
  std::string file_contents;
  std::string_view image;
  if (!image_file.empty()) {
    std::ifstream in(image_file, std::ios::binary);
    if (!in) throw std::runtime_error("resident image file " + image_file + ": cannot open it");
    file_contents.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (file_contents.empty()) throw std::runtime_error("resident image file " + image_file + ": empty");
    image = file_contents;
  } else {
    const ImageBytes embedded = image_bytes(image_);
    image = std::string_view(reinterpret_cast<const char*>(embedded.begin), embedded.size);
  }
  const auto started = std::chrono::steady_clock::now();
  const auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  if (image.substr(0, 4) == "\x7f" "ELF") {
    module_ = device.load_image(image.data());   // a cubin's length is in its header
  } else {
    // PTX: the driver's JIT for this GPU, kept in the module store by the PTX, the architecture and the driver.
    const std::string ptx(image);   // NUL-terminated for the JIT
    const DeviceFingerprint gpu = device.fingerprint();
    const std::string key = "sm_" + std::to_string(gpu.sm) + " driver " + gpu.driver_version + " CUDA " +
                            std::to_string(gpu.driver_api_version);
    std::string problem;
    std::optional<std::string> cubin = store ? store->jitted(ptx, key, &problem) : std::nullopt;
    if (cubin) {
      image_load_ = ImageLoad::from_store;
    } else {
      image_load_ = ImageLoad::jit_compiled;
      cubin = device.jit_cubin(ptx);
      jit_seconds_ = seconds_since(started);
      if (!store) store_problem_ = "no module store";
      else if (!store->keep_jitted(ptx, key, *cubin, &store_problem_)) store_problem_ = "not kept: " + store_problem_;
      else store_problem_.clear();
      if (!problem.empty()) store_problem_ = problem + (store_problem_.empty() ? "; made again" : "; " + store_problem_);
    }
    module_ = device.load_cubin(*cubin);
  }
  load_seconds_ = seconds_since(started);
  // Every kernel the image holds (resident_kernel_names); resident_kernel_for sends a pair to no other.
  for (const std::string& kernel : resident_kernel_names(image_))
    if (!device.function(*module_, kernel))
      throw std::runtime_error("the resident kernel image (" + std::string(name(image_)) + ") lacks its kernel " + kernel);
  const auto function = [&](const char* kernel) { return device.function(*module_, kernel); };
  kernel_ = function(kResidentKernel);
  lean_kernel_ = function(kResidentLeanKernel);
  lean_768_kernel_ = function(kResidentLean768Kernel);
  lean_fp8_kernel_ = function(kResidentLeanFp8Kernel);
  lean_dense_kernel_ = function(kResidentLeanDenseKernel);
  lean_dense_768_kernel_ = function(kResidentLeanDense768Kernel);
  lean_narrow_kernel_ = function(kResidentLeanNarrowKernel);
  lean_k16_kernel_ = function(kResidentLeanK16Kernel);
  lean_k16_f16_kernel_ = function(kResidentLeanK16F16Kernel);
  lean_narrow_f16_kernel_ = function(kResidentLeanNarrowF16Kernel);
  multiprocessors_ = device.fingerprint().sm_count;
  shared_optin_ = device.max_shared_per_block();
}

ResidentPath::~ResidentPath() = default;

struct ResidentPath::Launched {
  resident::Counters counters;
  std::vector<uint64_t> deviations;
  std::vector<uint32_t> dump;
  double seconds = 0;
  std::string kernel;
};

std::string_view name(ResidentKernel kernel) {
  switch (kernel) {
    case ResidentKernel::general: return "general";
    case ResidentKernel::lean: return "lean";
    case ResidentKernel::lean_768: return "lean-768";
    case ResidentKernel::lean_dense: return "lean-dense";
    case ResidentKernel::lean_dense_768: return "lean-dense-768";
    case ResidentKernel::lean_fp8: return "lean-fp8";
    case ResidentKernel::lean_narrow: return "lean-narrow";
    case ResidentKernel::lean_narrow_f16: return "lean-narrow-f16";
    case ResidentKernel::lean_k16: return "lean-k16";
    case ResidentKernel::lean_k16_f16: return "lean-k16-f16";
  }
  return "?";
}

ResidentKernel resident_kernel_for(const resident::PairTables& tables, resident::Fault::Kind fault, size_t shared_optin_bytes,
                                   bool wide_lean_always, ResidentImage image) {
  // The lean kernels judge the narrow model and integer forms, and apply output faults; a float form's general model,
  // a numerics fault's changed parameters and a register fault's second instruction need the general one.
  const bool lean = tables.judge != resident::Judge::float_model &&
                    (fault == resident::Fault::none || fault == resident::Fault::output);
  if (!lean) return ResidentKernel::general;
  if (!holds_specialised_kernels(image)) {
    if (tables.narrow_fp8_blocks || tables.narrow_over_codes || tables.dense_over_codes)
      throw std::logic_error("tables with a specialised kernel's layout, for the " + std::string(name(image)) +
                             " image, which holds none");
    return ResidentKernel::lean;
  }
  // Pairs with a layout of their own run the kernel built for it (resident_kernel.cuh says why each layout pays).
  if (tables.narrow_fp8_blocks) return ResidentKernel::lean_fp8;   // resident_pair_tables sets it only where it fits
  if (tables.narrow_over_codes)
    return resident::f16_words_fit(tables) ? ResidentKernel::lean_narrow_f16 : ResidentKernel::lean_narrow;
  // Where shared memory holds fewer than 32 of the pair's warps, 24 warps of 80 registers beat the warps that fit of
  // 64 (which spill).
  const size_t full_block = size_t(kLeanThreads / 32) * resident_shared_words(tables, WarpLayout::case_then_words) * 4;
  const bool fewer_than_32 = full_block > shared_optin_bytes && !wide_lean_always;
  if (tables.dense_over_codes) return fewer_than_32 ? ResidentKernel::lean_dense_768 : ResidentKernel::lean_dense;
  if (fewer_than_32) return ResidentKernel::lean_768;
  // m16n8k16 pairs: the lean kernel with their case dimensions as compile-time constants, f16 operands as f32 words.
  if (gen::portable::same_dims(tables.cases, kResidentK16Dims))
    return resident::f16_words_fit(tables) ? ResidentKernel::lean_k16_f16 : ResidentKernel::lean_k16;
  return ResidentKernel::lean;
}

ResidentPath::Launched ResidentPath::launch(const Form& form, int selector, const ModelParameters* model,
                                            resident::Launch launch, uint64_t warps) {
  std::string why;
  if (!covers(form, &why)) throw std::invalid_argument(form.opcode + ": not in the " + std::string(name(image_)) + " image: " + why);
  ResidentPairTables host = resident_pair_tables(form, selector, model, image_);
  // One buffer: the arena, the samplers, the layouts. The pair's tables themselves, with these device pointers, go in
  // the launch's parameters (Launch::pair).
  const size_t arena_bytes = host.cases.arena.size() * 4, samplers_bytes = host.cases.samplers.size() * sizeof(gen::portable::Sampler);
  const size_t layouts_bytes = host.layouts.size() * 4;
  const size_t arena_at = 0, samplers_at = (arena_at + arena_bytes + 15) / 16 * 16;
  const size_t layouts_at = (samplers_at + samplers_bytes + 15) / 16 * 16;
  auto tables = device_.allocate(layouts_at + layouts_bytes);
  resident::PairTables on_device = host.tables;
  on_device.cases.arena = reinterpret_cast<const uint32_t*>(tables->address() + arena_at);
  on_device.cases.samplers = reinterpret_cast<const gen::portable::Sampler*>(tables->address() + samplers_at);
  on_device.layouts = reinterpret_cast<const uint32_t*>(tables->address() + layouts_at);
  device_.copy_to(*tables, host.cases.arena.data(), arena_bytes, arena_at);
  device_.copy_to(*tables, host.cases.samplers.data(), samplers_bytes, samplers_at);
  device_.copy_to(*tables, host.layouts.data(), layouts_bytes, layouts_at);

  auto counters = device_.allocate(sizeof(resident::Counters));
  auto deviations = device_.allocate(size_t(launch.deviation_capacity) * 8);
  const size_t dump_bytes = launch.mode == resident::Mode::dump ? size_t(launch.count) * resident::dump_words(host.tables) * 4 : 0;
  auto dump = device_.allocate(dump_bytes);
  launch.pair = on_device;
  launch.counters = reinterpret_cast<resident::Counters*>(counters->address());
  launch.deviations = reinterpret_cast<uint64_t*>(deviations->address());
  launch.dump = reinterpret_cast<uint32_t*>(dump->address());

  const ResidentKernel choice =
      resident_kernel_for(host.tables, launch.fault.kind, size_t(shared_optin_), wide_lean_always_, image_);
  const bool lean = choice != ResidentKernel::general;
  void* kernel = kernel_;
  unsigned threads = kThreads;
  uint32_t warp_words = resident_shared_words(host.tables, WarpLayout::case_then_words);
  switch (choice) {
    case ResidentKernel::general: break;
    case ResidentKernel::lean: kernel = lean_kernel_, threads = kLeanThreads; break;
    case ResidentKernel::lean_768: kernel = lean_768_kernel_, threads = kLean768Threads; break;
    case ResidentKernel::lean_dense: kernel = lean_dense_kernel_, threads = kLeanThreads; break;
    case ResidentKernel::lean_dense_768: kernel = lean_dense_768_kernel_, threads = kLean768Threads; break;
    case ResidentKernel::lean_k16: kernel = lean_k16_kernel_, threads = kLeanThreads; break;
    case ResidentKernel::lean_k16_f16: kernel = lean_k16_f16_kernel_, threads = kLeanThreads; break;
    case ResidentKernel::lean_fp8:
      kernel = lean_fp8_kernel_;
      warp_words = resident_shared_words(host.tables, WarpLayout::fp8);
      break;
    case ResidentKernel::lean_narrow:
    case ResidentKernel::lean_narrow_f16:
      kernel = choice == ResidentKernel::lean_narrow_f16 ? lean_narrow_f16_kernel_ : lean_narrow_kernel_;
      warp_words = resident_shared_words(host.tables, WarpLayout::narrow_over_codes);
      break;
  }
  // The fp8 and narrow kernels: blocks of their __launch_bounds__ as the kernel reports it, so that an image built with
  // other bounds (resident_benchmark --image-file) runs blocks of its own size.
  if (choice == ResidentKernel::lean_fp8 || choice == ResidentKernel::lean_narrow || choice == ResidentKernel::lean_narrow_f16)
    threads = unsigned(device_.max_threads(kernel)) / kThreads * kThreads;
  // The lean kernels' warps keep together by scheduler (Launch::phase_barrier) where they judge a float form: the
  // barrier pays for float pairs, whose judge is long, and costs integer pairs, whose judge is short.
  const bool barrier = phase_barrier_ == PhaseBarrier::on ||
                       (phase_barrier_ == PhaseBarrier::float_pairs && host.tables.judge != resident::Judge::integer);
  launch.phase_barrier = lean && barrier ? 1 : 0;
  const auto shared_for = [&](unsigned t) { return size_t(t / 32) * warp_words * 4; };
  if (every_pair_kernel_) kernel = every_pair_kernel_;   // tests (send_every_pair_to)
  // The dynamic shared memory a block may have: the device's, less the kernel's static (the fp8 kernel's copies,
  // kFp8StaticSharedBytes).
  const size_t dynamic_limit = size_t(shared_optin_) - size_t(device_.static_shared_bytes(kernel));
  while (threads > kThreads && shared_for(threads) > dynamic_limit) threads -= kThreads;
  if (lean && max_lean_warps_ >= 4) threads = std::min(threads, max_lean_warps_ * 32);
  const size_t shared = shared_for(threads);
  const int per_multiprocessor = device_.resident_blocks(kernel, int(threads), shared);
  if (per_multiprocessor < 1) throw std::runtime_error(form.opcode + ": the resident kernel does not fit on a multiprocessor");
  const uint64_t full = uint64_t(multiprocessors_) * uint64_t(per_multiprocessor);
  const uint64_t blocks = std::max<uint64_t>(1, std::min<uint64_t>(full, warps / (threads / 32) + 1));
  void* parameters[] = {&launch};
  const auto start = std::chrono::steady_clock::now();
  device_.launch(kernel, unsigned(blocks), threads, shared, parameters);
  Launched out;
  out.kernel = every_pair_kernel_ ? "as the test sent it" : std::string(name(choice));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  device_.copy_from(&out.counters, *counters, sizeof out.counters);
  out.deviations.resize(size_t(std::min<unsigned long long>(out.counters.recorded, launch.deviation_capacity)));
  if (!out.deviations.empty()) device_.copy_from(out.deviations.data(), *deviations, out.deviations.size() * 8);
  out.dump.resize(dump_bytes / 4);
  if (dump_bytes) device_.copy_from(out.dump.data(), *dump, dump_bytes);
  return out;
}

void ResidentPath::send_every_pair_to(const std::string& kernel) {
  every_pair_kernel_ = nullptr;
  if (kernel.empty()) return;
  void* function = device_.function(*module_, kernel.c_str());
  if (!function) throw std::runtime_error("the resident kernel image has no kernel " + kernel);
  every_pair_kernel_ = function;
}

ResidentResult ResidentPath::check(const Form& form, int selector, const ModelParameters* model, uint64_t stream_seed,
                                   uint64_t first, uint64_t count, const resident::Fault* fault, uint32_t capacity) {
  resident::Launch l;
  l.stream_base = gen::CaseSeeds(stream_seed, form).base();
  l.first = first;
  l.count = count;
  l.mode = resident::Mode::check;
  l.deviation_capacity = capacity;
  if (fault) l.fault = *fault;
  Launched done = launch(form, selector, model, l, count);
  ResidentResult out;
  out.counts = {done.counters.generated, done.counters.checked, done.counters.deviating, done.counters.recorded,
                done.counters.fault_changed};
  out.deviating_indices = std::move(done.deviations);
  std::sort(out.deviating_indices.begin(), out.deviating_indices.end());
  out.seconds = done.seconds;
  out.kernel = done.kernel;
  return out;
}

ResidentResult ResidentPath::stage(const Form& form, int selector, const ModelParameters* model, resident::Mode mode,
                                   uint64_t count) {
  resident::Launch l;
  l.stream_base = gen::CaseSeeds(1, form).base();
  l.count = count;
  l.mode = mode;
  Launched done = launch(form, selector, model, l, count);
  ResidentResult out;
  out.counts = {done.counters.generated, done.counters.checked, done.counters.deviating, done.counters.recorded};
  out.seconds = done.seconds;
  return out;
}

double ResidentPath::issue(const Form& form, int selector, const ModelParameters* model, uint64_t per_warp, uint64_t* total) {
  resident::Launch l;
  l.stream_base = gen::CaseSeeds(1, form).base();
  l.count = (per_warp + 3) / 4 * 4;
  l.mode = resident::Mode::issue;
  Launched done = launch(form, selector, model, l, ~uint64_t(0) / 2);   // every block the GPU holds at once
  if (total) *total = done.counters.generated * l.count;   // warps that ran x instructions per warp
  return done.seconds;
}

std::vector<ResidentDump> ResidentPath::dump(const Form& form, int selector, const ModelParameters* model,
                                             uint64_t stream_seed, uint64_t first, uint32_t count) {
  resident::Launch l;
  l.stream_base = gen::CaseSeeds(stream_seed, form).base();
  l.first = first;
  l.count = count;
  l.mode = resident::Mode::dump;
  Launched done = launch(form, selector, model, l, count);
  const ResidentPairTables tables = resident_pair_tables(form, selector, model, image_);
  const gen::portable::CaseTables& t = tables.tables.cases;
  const uint32_t words = resident::dump_words(tables.tables), d_registers = (words - resident::case_words(t) - 32) / 32;
  std::vector<ResidentDump> out(count);
  for (uint32_t w = 0; w < count; ++w) {
    const uint32_t* record = done.dump.data() + size_t(w) * words;
    MmaCase& test = out[w].test;
    test.form = &form;
    test.selector = selector;
    auto take = [&](std::vector<uint32_t>& into, uint32_t n) {
      into.assign(record, record + n);
      record += n;
    };
    take(test.a_compressed, t.a_count);
    take(test.b, t.b_count);
    take(test.c, t.c_count);
    take(test.nibbles, t.nibble_count);
    take(test.metadata_noise, 32);
    if (d_registers != uint32_t(form.regs.d)) throw std::logic_error("dump: D register count");
    out[w].d = d_from_registers(form, std::vector<uint32_t>(record, record + 32 * d_registers));
  }
  return out;
}

std::vector<uint32_t> resident_expected_d(const MmaCase& test, const ModelParameters* model) {
  if (test.form->is_integer()) {
    std::vector<uint32_t> d;
    for (const auto& element : reference(test).d) d.push_back(element.rounded_code);
    return d;
  }
  if (!model) throw std::invalid_argument(test.form->opcode + ": a float form without a model to judge D by");
  return model_result(test, *model);
}

std::string dump_disagreement(const Form& form, const ModelParameters* model, uint64_t stream_seed, uint64_t first,
                              const std::vector<ResidentDump>& dumped) {
  const gen::CaseSeeds seeds(stream_seed, form);
  for (size_t w = 0; w < dumped.size(); ++w) {
    const MmaCase& gpu = dumped[w].test;
    gen::Options options;
    options.selector = gpu.selector;
    MmaCase host;
    gen::BulkGenerator(seeds.of(first + w)).next(form, host, options);
    const std::string where = form.opcode + " selector " + std::to_string(gpu.selector) + " case " + std::to_string(first + w);
    const std::pair<const char*, bool> operands[] = {
        {"A", gpu.a_compressed == host.a_compressed}, {"B", gpu.b == host.b}, {"C", gpu.c == host.c},
        {"the metadata nibbles", gpu.nibbles == host.nibbles}, {"the metadata noise", gpu.metadata_noise == host.metadata_noise}};
    for (const auto& [name, same] : operands)
      if (!same) return where + ": the GPU drew another " + name + " than the host";
    if (!form.is_integer() && !model) return where + ": a float form without a model to judge D by";
    const std::vector<uint32_t> expected = resident_expected_d(host, model);
    for (size_t e = 0; e < expected.size(); ++e)
      if (e >= dumped[w].d.size() || dumped[w].d[e] != expected[e]) {
        char codes[64];
        std::snprintf(codes, sizeof codes, "0x%X, not 0x%X", e < dumped[w].d.size() ? dumped[w].d[e] : 0u, expected[e]);
        return where + ": D[" + std::to_string(e / size_t(form.shape.n)) + "][" + std::to_string(e % size_t(form.shape.n)) +
               "] is " + codes + (form.is_integer() ? " (the exact reference's)" : " (the model's)");
      }
  }
  return {};
}

}  // namespace mmasp
