#include "bench/mixed_family.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "gpbandit/numerics/random.h"
#include "gpbandit/space/space_transform.h"

namespace gpbandit {
namespace bench {
namespace {

double Uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
int UniformInt(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
double LogUniform(Rng& rng, double lo, double hi) {
  return std::exp(Uniform(rng, std::log(lo), std::log(hi)));
}

// The continuous part's centre of parameter i under the labels of x (vector entries).
double Centre(const MixedProblem& p, int i, const std::vector<int>& labels,
              const std::vector<int>& best) {
  double c = p.centre[static_cast<std::size_t>(i)];
  for (std::size_t k = 0; k < labels.size(); ++k)
    if (labels[k] != best[k]) c += p.shift[static_cast<std::size_t>(i)][k];
  return c;
}

// f's minimum under fixed labels: the offsets plus each integer's best level.
double MinUnderLabels(const MixedProblem& p, const SpaceTransform& t,
                      const std::vector<int>& labels, const std::vector<int>& drawn_best) {
  double f = 0.0;
  for (std::size_t k = 0; k < labels.size(); ++k)
    f += p.offset[k][static_cast<std::size_t>(labels[k])];
  for (int i = 0; i < t.dim(); ++i) {
    const Parameter& q = p.parameters[static_cast<std::size_t>(i)];
    if (q.kind != ParameterKind::kInteger) continue;
    const double c = Centre(p, i, labels, drawn_best);
    double best = HUGE_VAL;
    for (double v = q.lower; v <= q.upper; v += 1.0)
      best = std::min(best, std::pow(t.ToModel(i, v) - c, 2));
    f += p.weight[static_cast<std::size_t>(i)] * best;
  }
  return f;
}

// Every combination of labels; the first minimizing one becomes the best labels.
void FindMinimum(MixedProblem* p) {
  const SpaceTransform t(p->Space());
  const std::vector<int> drawn = p->best_label;
  std::vector<int> labels(drawn.size(), 0);
  p->min_value = HUGE_VAL;
  while (true) {
    const double f = MinUnderLabels(*p, t, labels, drawn);
    if (f < p->min_value) {
      p->min_value = f;
      p->best_label = labels;
    }
    std::size_t k = 0;
    for (; k < labels.size(); ++k) {
      const int size = static_cast<int>(p->offset[k].size());
      if (++labels[k] < size) break;
      labels[k] = 0;
    }
    if (k == labels.size()) break;
  }
  // Centres are defined relative to the drawn labels; keep those as the reference.
  p->drawn_best = drawn;
}

}  // namespace

double MixedProblem::Value(const Eigen::VectorXd& x) const {
  const SpaceTransform t(Space());
  std::vector<int> labels;
  for (int index : categorical_index) labels.push_back(static_cast<int>(x(index)));
  double f = 0.0;
  for (std::size_t k = 0; k < labels.size(); ++k)
    f += offset[k][static_cast<std::size_t>(labels[k])];
  for (int i = 0; i < t.dim(); ++i) {
    if (parameters[static_cast<std::size_t>(i)].kind == ParameterKind::kCategorical) continue;
    const double c = Centre(*this, i, labels, drawn_best);
    f += weight[static_cast<std::size_t>(i)] * std::pow(t.ToModel(i, x(i)) - c, 2);
  }
  return f;
}

bool MixedProblem::HasBestLabels(const Eigen::VectorXd& x) const {
  for (std::size_t k = 0; k < categorical_index.size(); ++k)
    if (static_cast<int>(x(categorical_index[k])) != best_label[k]) return false;
  return true;
}

int MixedProblem::MaxLabels() const {
  int most = 0;
  for (const std::vector<double>& o : offset) most = std::max(most, static_cast<int>(o.size()));
  return most;
}

std::vector<std::string> MixedProblemNames(FamilyHalf half, int count) {
  std::vector<std::string> names;
  for (int j = 0; j < count; ++j)
    names.push_back("mixed-" + std::to_string(2 * j + (half == FamilyHalf::kTuning ? 0 : 1)));
  return names;
}

MixedProblem MakeMixedProblem(const std::string& name) {
  const std::string prefix = "mixed-";
  std::size_t used = 0;
  unsigned long seed = 0;
  bool ok = name.compare(0, prefix.size(), prefix) == 0 && name.size() > prefix.size() &&
            std::isdigit(static_cast<unsigned char>(name[prefix.size()]));
  if (ok) {
    seed = std::stoul(name.substr(prefix.size()), &used);
    ok = used == name.size() - prefix.size() && seed <= 0xffffffffUL;
  }
  if (!ok) throw std::invalid_argument("problem '" + name + "': not mixed-<seed>");
  MixedProblem p;
  p.name = name;
  p.instance_seed = static_cast<unsigned>(seed);
  Rng rng = SeededRng({seed, 0x6d69786564ULL});
  const int reals = UniformInt(rng, 1, 3), integers = UniformInt(rng, 0, 2),
            categoricals = UniformInt(rng, 1, 2);
  for (int i = 0; i < reals; ++i) {
    const std::string n = "r" + std::to_string(i);
    p.parameters.push_back(UniformInt(rng, 0, 2) == 0
                               ? Parameter::Real(n, 0.01, 100.0, ParameterScale::kLog)
                               : Parameter::Real(n, 0.0, 1.0));
  }
  for (int i = 0; i < integers; ++i)
    p.parameters.push_back(Parameter::Integer("n" + std::to_string(i), 1, UniformInt(rng, 3, 16)));
  for (int k = 0; k < categoricals; ++k) {
    std::vector<std::string> labels;
    const int size = UniformInt(rng, 2, 6);
    for (int l = 0; l < size; ++l)
      labels.push_back("c" + std::to_string(k) + "_" + std::to_string(l));
    p.categorical_index.push_back(static_cast<int>(p.parameters.size()));
    p.parameters.push_back(Parameter::Categorical("c" + std::to_string(k), labels));
    const int best = UniformInt(rng, 0, size - 1);
    const double gap = LogUniform(rng, 0.05, 1.0), spread = Uniform(rng, 0.0, 1.0);
    std::vector<double> offsets(static_cast<std::size_t>(size));
    for (int l = 0; l < size; ++l)
      offsets[static_cast<std::size_t>(l)] = l == best ? 0.0 : gap + spread * Uniform(rng, 0, 1);
    p.best_label.push_back(best);
    p.offset.push_back(offsets);
  }
  const std::size_t dim = p.parameters.size();
  p.weight.assign(dim, -1.0);
  p.centre.assign(dim, -1.0);
  p.shift.assign(dim, std::vector<double>(static_cast<std::size_t>(categoricals), 0.0));
  for (std::size_t i = 0; i < dim; ++i) {
    if (p.parameters[i].kind == ParameterKind::kCategorical) continue;
    p.weight[i] = LogUniform(rng, 0.5, 2.0);
    p.centre[i] = Uniform(rng, 0.15, 0.85);
    for (double& s : p.shift[i]) s = Uniform(rng, -0.1, 0.1);
  }
  FindMinimum(&p);
  return p;
}

}  // namespace bench
}  // namespace gpbandit
