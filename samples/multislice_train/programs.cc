#include "samples/multislice_train/programs.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"

namespace multislice {
namespace {

// Spells the shapes: {BW} is tensor<BxWxf32>, {WW} tensor<WxWxf32>, {RW}
// the shard's tensor<RxWxf32>, {S} the scalar.
std::string Shapes(std::string text, int64_t batch, int64_t width,
                   int64_t rows) {
  return absl::StrReplaceAll(
      text, {{"{BW}", absl::StrFormat("tensor<%dx%dxf32>", batch, width)},
             {"{WW}", absl::StrFormat("tensor<%dx%dxf32>", width, width)},
             {"{RW}", absl::StrFormat("tensor<%dx%dxf32>", rows, width)},
             {"{S}", "tensor<f32>"}});
}

}  // namespace

ProgramTexts MakePrograms(int64_t batch, int64_t width, int64_t shard_rows) {
  // 2 / (B W): the derivative of the mean of B x W squared residuals.
  const std::string scale =
      absl::StrFormat("%.9e", 2.0 / static_cast<double>(batch * width));
  const std::string count =
      absl::StrFormat("%.9e", static_cast<double>(batch * width));
  ProgramTexts p;
  p.forward_hidden = R"(
func.func @main(%h: {BW}, %w: {WW}) -> {BW} {
  %z = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : ({BW}, {WW}) -> {BW}
  %out = stablehlo.tanh %z : {BW}
  func.return %out : {BW}
})";
  p.forward_last = R"(
func.func @main(%h: {BW}, %w: {WW}, %y: {BW}) -> ({S}, {BW}) {
  %p = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : ({BW}, {WW}) -> {BW}
  %r = stablehlo.subtract %p, %y : {BW}
  %r2 = stablehlo.multiply %r, %r : {BW}
  %zero = stablehlo.constant dense<0.000000e+00> : {S}
  %sum = stablehlo.reduce(%r2 init: %zero) applies stablehlo.add across dimensions = [0, 1] : ({BW}, {S}) -> {S}
  %n = stablehlo.constant dense<COUNT> : {S}
  %loss = stablehlo.divide %sum, %n : {S}
  func.return %loss, %r : {S}, {BW}
})";
  p.backward_last = R"(
func.func @main(%h: {BW}, %r: {BW}, %w: {WW}) -> ({WW}, {BW}) {
  %scale = stablehlo.constant dense<SCALE> : {BW}
  %dp = stablehlo.multiply %r, %scale : {BW}
  %dw = stablehlo.dot_general %h, %dp, contracting_dims = [0] x [0] : ({BW}, {BW}) -> {WW}
  %dh = stablehlo.dot_general %dp, %w, contracting_dims = [1] x [1] : ({BW}, {WW}) -> {BW}
  func.return %dw, %dh : {WW}, {BW}
})";
  p.backward_hidden = R"(
func.func @main(%h: {BW}, %out: {BW}, %dout: {BW}, %w: {WW}) -> ({WW}, {BW}) {
  %sq = stablehlo.multiply %out, %out : {BW}
  %one = stablehlo.constant dense<1.000000e+00> : {BW}
  %slope = stablehlo.subtract %one, %sq : {BW}
  %dz = stablehlo.multiply %dout, %slope : {BW}
  %dw = stablehlo.dot_general %h, %dz, contracting_dims = [0] x [0] : ({BW}, {BW}) -> {WW}
  %dh = stablehlo.dot_general %dz, %w, contracting_dims = [1] x [1] : ({BW}, {WW}) -> {BW}
  func.return %dw, %dh : {WW}, {BW}
})";
  p.backward_first = R"(
func.func @main(%x: {BW}, %out: {BW}, %dout: {BW}) -> {WW} {
  %sq = stablehlo.multiply %out, %out : {BW}
  %one = stablehlo.constant dense<1.000000e+00> : {BW}
  %slope = stablehlo.subtract %one, %sq : {BW}
  %dz = stablehlo.multiply %dout, %slope : {BW}
  %dw = stablehlo.dot_general %x, %dz, contracting_dims = [0] x [0] : ({BW}, {BW}) -> {WW}
  func.return %dw : {WW}
})";
  p.update = R"(
func.func @main(%w: {RW}, %g: {RW}, %lr: {S}) -> {RW} {
  %lrs = stablehlo.broadcast_in_dim %lr, dims = [] : ({S}) -> {RW}
  %step = stablehlo.multiply %lrs, %g : {RW}
  %new = stablehlo.subtract %w, %step : {RW}
  func.return %new : {RW}
})";
  for (std::string* text :
       {&p.forward_hidden, &p.forward_last, &p.backward_last,
        &p.backward_hidden, &p.backward_first, &p.update}) {
    *text = absl::StrReplaceAll(Shapes(*text, batch, width, shard_rows),
                                {{"SCALE", scale}, {"COUNT", count}});
  }
  return p;
}

int64_t ModelFlopsPerChip(int64_t batch, int64_t width, int64_t layers) {
  return 2 * batch * width * width * (layers + 2 * layers - 1);
}

}  // namespace multislice
