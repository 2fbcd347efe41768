#include "train/checkpoint.h"

#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/error.h"
#include "io/atomic_file.h"

namespace matsamp {

namespace {

// A checkpoint file: this 32-byte header (magic, the torch archive's length
// and XXH3-64), then the archive. The archive also holds an XXH3-64 per model
// and best-model tensor, checked against what torch restores.
constexpr char kMagic[16] = "MATSAMP-CKPT-1\n";

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

uint64_t tensor_checksum(const torch::Tensor& t) {
  const torch::Tensor dense = t.detach().to(torch::kCPU).contiguous();
  return XXH3_64bits(dense.data_ptr(), dense.numel() * dense.element_size());
}

// The tensors that get a checksum each, by name: model parameters and buffers
// ("model.<name>") and the best model's ("best_model.<i>").
std::vector<std::pair<std::string, torch::Tensor>> named_tensors(const torch::nn::Module& model,
                                                                 const std::vector<torch::Tensor>& best) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& p : model.named_parameters()) out.emplace_back("model." + p.key(), p.value());
  for (const auto& b : model.named_buffers()) out.emplace_back("model." + b.key(), b.value());
  for (size_t i = 0; i < best.size(); ++i) out.emplace_back("best_model." + std::to_string(i), best[i]);
  return out;
}

torch::Tensor checksums_of(const std::vector<std::pair<std::string, torch::Tensor>>& tensors) {
  std::vector<int64_t> sums;
  for (const auto& [name, t] : tensors) sums.push_back(static_cast<int64_t>(tensor_checksum(t)));
  return torch::tensor(sums);
}

// What wrote an identity, and what its numbers cover.
struct RunKind {
  const char* name;
  const char* identity;
};

RunKind run_kind(const int64_t* identity, int64_t size) {
  const int64_t tag = size > 0 ? identity[0] : 0;
  if (tag == kLinkCheckpointTag)
    return {"link prediction", "seed, input, hidden, layers, decoder, negatives or Hits@K differ"};
  if (tag == kRgcnCheckpointTag)
    return {"R-GCN",
            "seed, vertex types, relations, seed type, classes, hidden, layers, bases or relation weights differ"};
  return {"node classification", "seed, model, input, hidden, classes or layers differ"};
}

// Restores a run from the archive of a checkpoint that passed its checksum; torch's
// errors reach the caller.
void restore(const std::string& path, const std::string& archive_bytes, const std::vector<int64_t>& identity,
             const torch::Device& device, torch::nn::Module& model, torch::optim::Optimizer& optimizer,
             std::vector<torch::Tensor>& best_parameters, ProgressNumbers& progress) {
  torch::serialize::InputArchive archive, model_archive, optimizer_archive, best_archive;
  torch::Tensor saved_identity, counters, scores, checksums;
  std::istringstream payload(archive_bytes);
  archive.load_from(payload, device);
  archive.read("checksums", checksums);
  archive.read("identity", saved_identity);
  archive.read("progress", counters);
  archive.read("scores", scores);
  archive.read("model", model_archive);
  archive.read("optimizer", optimizer_archive);
  archive.read("best_model", best_archive);
  saved_identity = saved_identity.to(torch::kCPU, torch::kLong).contiguous();
  const RunKind saved = run_kind(saved_identity.data_ptr<int64_t>(), saved_identity.numel()),
                mine = run_kind(identity.data(), static_cast<int64_t>(identity.size()));
  MATSAMP_CHECK(std::strcmp(saved.name, mine.name) == 0, "checkpoint '", path, "' belongs to another run: ", saved.name,
                " wrote it, this is ", mine.name);
  MATSAMP_CHECK(saved_identity.numel() == static_cast<int64_t>(identity.size()) &&
                    std::equal(identity.begin(), identity.end(), saved_identity.data_ptr<int64_t>()),
                "checkpoint '", path, "' belongs to another run (", mine.identity, ")");
  counters = counters.to(torch::kCPU, torch::kLong).contiguous();
  scores = scores.to(torch::kCPU, torch::kDouble).contiguous();
  MATSAMP_CHECK(counters.numel() == static_cast<int64_t>(progress.counters.size()) &&
                    scores.numel() == static_cast<int64_t>(progress.scores.size()),
                "checkpoint '", path, "' belongs to another kind of run (", counters.numel(), " counters and ",
                scores.numel(), " scores, expected ", progress.counters.size(), " and ", progress.scores.size(), ")");
  model.load(model_archive);
  optimizer.load(optimizer_archive);
  best_parameters.clear();
  while (true) {
    torch::Tensor p;  // fresh each time: try_read fills a defined tensor in place
    if (!best_archive.try_read(std::to_string(best_parameters.size()), p)) break;
    best_parameters.push_back(p.to(device));
  }

  // What torch restored from the intact archive is what was saved, tensor by tensor.
  const auto tensors = named_tensors(model, best_parameters);
  checksums = checksums.to(torch::kCPU, torch::kLong).flatten().contiguous();
  MATSAMP_CHECK(checksums.numel() == static_cast<int64_t>(tensors.size()), "checkpoint '", path,
                "' is corrupt: ", checksums.numel(), " tensor checksums for ", tensors.size(), " tensors");
  for (size_t i = 0; i < tensors.size(); ++i)
    MATSAMP_CHECK(static_cast<int64_t>(tensor_checksum(tensors[i].second)) == checksums.data_ptr<int64_t>()[i],
                  "checkpoint '", path, "' is corrupt: tensor ", tensors[i].first, " fails its checksum");
  progress.counters.assign(counters.data_ptr<int64_t>(), counters.data_ptr<int64_t>() + counters.numel());
  progress.scores.assign(scores.data_ptr<double>(), scores.data_ptr<double>() + scores.numel());
}

}  // namespace

void save_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::nn::Module& model,
                     const torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& best_parameters,
                     const ProgressNumbers& progress) {
  torch::serialize::OutputArchive archive, model_archive, optimizer_archive, best_archive;
  model.save(model_archive);
  optimizer.save(optimizer_archive);
  for (size_t i = 0; i < best_parameters.size(); ++i) best_archive.write(std::to_string(i), best_parameters[i]);
  archive.write("model", model_archive);
  archive.write("optimizer", optimizer_archive);
  archive.write("best_model", best_archive);
  archive.write("identity", torch::tensor(identity));
  archive.write("progress", torch::tensor(progress.counters, torch::kLong));
  archive.write("scores", torch::tensor(progress.scores, torch::kDouble));
  archive.write("checksums", checksums_of(named_tensors(model, best_parameters)));
  std::ostringstream bytes;
  try {
    archive.save_to(bytes);
  } catch (const c10::Error& e) {
    fail("cannot write checkpoint '", path, "': ", first_line(e.what_without_backtrace()));
  }
  const std::string payload = bytes.str();
  const uint64_t length = payload.size(), sum = XXH3_64bits(payload.data(), payload.size());
  // Whole or not at all: a full disk or a signal leaves the previous checkpoint.
  AtomicFileWriter out(path);
  out.write(kMagic, sizeof kMagic);
  out.write(&length, sizeof length);
  out.write(&sum, sizeof sum);
  out.write(payload.data(), payload.size());
  out.commit();
}

void load_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::Device& device,
                     torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                     std::vector<torch::Tensor>& best_parameters, ProgressNumbers& progress) {
  std::ifstream in(path, std::ios::binary);
  MATSAMP_CHECK(in, "cannot read checkpoint '", path, "': ", std::strerror(errno));
  const std::string file((std::istreambuf_iterator<char>(in)), {});
  uint64_t length = 0, sum = 0;
  MATSAMP_CHECK(file.size() >= sizeof kMagic + 16 && std::memcmp(file.data(), kMagic, sizeof kMagic) == 0,
                "cannot read checkpoint '", path, "': not a matsamp checkpoint (or one written before checksums)");
  std::memcpy(&length, file.data() + sizeof kMagic, 8);
  std::memcpy(&sum, file.data() + sizeof kMagic + 8, 8);
  const size_t header = sizeof kMagic + 16;
  MATSAMP_CHECK(file.size() - header == length, "checkpoint '", path,
                "' is truncated or has trailing bytes: ", file.size() - header, " bytes of archive, the header says ",
                length);
  // Before torch reads a byte: its archive reader is not safe on damaged input (a
  // flipped byte can make it allocate from a forged length or terminate the process).
  MATSAMP_CHECK(XXH3_64bits(file.data() + header, length) == sum, "checkpoint '", path,
                "' is corrupt: the file fails its checksum (changed since it was written)");

  // Any torch error from here on, reading or restoring, is a damaged archive: the
  // checksum guards against accidents, not against a file made to pass it.
  try {
    restore(path, file.substr(header), identity, device, model, optimizer, best_parameters, progress);
  } catch (const c10::Error& e) {
    fail("cannot read checkpoint '", path, "': ", first_line(e.what_without_backtrace()));
  }
}

}  // namespace matsamp
