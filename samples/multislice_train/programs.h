// The StableHLO programs of multislice_train's MLP, generated for its sizes:
// L square layers of width W, tanh between them, a linear last layer and a
// mean squared error, over a per-chip batch of B rows. Forward and
// backward are one program per layer so that the gradient of one layer can
// be reduced while the next one's is computed.
#ifndef PJRTX_SAMPLES_MULTISLICE_TRAIN_PROGRAMS_H_
#define PJRTX_SAMPLES_MULTISLICE_TRAIN_PROGRAMS_H_

#include <cstdint>
#include <string>

namespace multislice {

struct ProgramTexts {
  // (h_in: BxW, w: WxW) -> h_out = tanh(h_in w)
  std::string forward_hidden;
  // (h_in: BxW, w: WxW, y: BxW) -> (loss: scalar, r = h_in w - y)
  std::string forward_last;
  // (h_in, r, w) -> (dw = h_in^T dp, dh_in = dp w^T), dp = 2 r / (B W)
  std::string backward_last;
  // (h_in, h_out, dh_out, w) -> (dw, dh_in), through tanh' = 1 - h_out^2
  std::string backward_hidden;
  // (x, h_out, dh_out) -> dw: the first layer needs no gradient for x.
  std::string backward_first;
  // (w: RxW, g: RxW, lr: scalar) -> w - lr g, for a shard of R rows.
  std::string update;
};

ProgramTexts MakePrograms(int64_t batch, int64_t width, int64_t shard_rows);

// Model FLOPs of one chip's step: forward L matmuls, backward 2L - 1 (no
// gradient for the input), 2 B W^2 each.
int64_t ModelFlopsPerChip(int64_t batch, int64_t width, int64_t layers);

}  // namespace multislice

#endif  // PJRTX_SAMPLES_MULTISLICE_TRAIN_PROGRAMS_H_
