#include "bench/problem_family.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "gpbandit/numerics/random.h"
#include "numerics/math.h"

namespace gpbandit {
namespace bench {
namespace {

constexpr int kFourierFeatures = 512;
// Noisy kinds: noise standard deviation as a fraction of the function's spread over the box.
constexpr double kRelativeNoise = 0.02;

using Function = std::function<double(const Eigen::VectorXd&)>;

double Uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// A Haar-random rotation: Q of the QR factorization of a Gaussian matrix, columns signed by
// R's diagonal (Mezzadri 2007).
Eigen::MatrixXd RandomRotation(int d, Rng& rng) {
  const Eigen::MatrixXd a = StandardNormalMatrix(d, d, rng);
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(a);
  Eigen::MatrixXd q = qr.householderQ();
  const Eigen::MatrixXd r = qr.matrixQR().triangularView<Eigen::Upper>();
  for (int j = 0; j < d; ++j)
    if (r(j, j) < 0) q.col(j) *= -1.0;
  return q;
}

// ---- the classic functions (minimization forms, Surjanovic & Bingham) ----------------------

double Ackley(const Eigen::VectorXd& z) {
  const double d = static_cast<double>(z.size());
  const double squares = z.squaredNorm() / d;
  const double cosines = (2.0 * kPi * z.array()).cos().sum() / d;
  return -20.0 * std::exp(-0.2 * std::sqrt(squares)) - std::exp(cosines) + 20.0 + std::exp(1.0);
}

double Rastrigin(const Eigen::VectorXd& z) {
  return 10.0 * z.size() + (z.array().square() - 10.0 * (2.0 * kPi * z.array()).cos()).sum();
}

double Rosenbrock(const Eigen::VectorXd& z) {
  double sum = 0.0;
  for (int i = 0; i + 1 < z.size(); ++i)
    sum += 100.0 * std::pow(z(i + 1) - z(i) * z(i), 2) + std::pow(1.0 - z(i), 2);
  return sum;
}

double Levy(const Eigen::VectorXd& z) {
  const Eigen::ArrayXd w = 1.0 + (z.array() - 1.0) / 4.0;
  const int d = static_cast<int>(z.size());
  double sum = std::pow(std::sin(kPi * w(0)), 2);
  for (int i = 0; i + 1 < d; ++i)
    sum += std::pow(w(i) - 1.0, 2) * (1.0 + 10.0 * std::pow(std::sin(kPi * w(i) + 1.0), 2));
  sum += std::pow(w(d - 1) - 1.0, 2) * (1.0 + std::pow(std::sin(2.0 * kPi * w(d - 1)), 2));
  return sum;
}

double StyblinskiTang1(double t) { return 0.5 * (t * t * t * t - 16.0 * t * t + 5.0 * t); }

// ---- the kinds ------------------------------------------------------------------------------

struct Classic {
  Function g;
  double lower, upper, argmin;  // the classic box and g's minimizer (every coordinate)
};

Classic ClassicOf(const std::string& base) {
  if (base == "ackley") return {Ackley, -32.768, 32.768, 0.0};
  if (base == "rastrigin") return {Rastrigin, -5.12, 5.12, 0.0};
  if (base == "rosenbrock") return {Rosenbrock, -5.0, 10.0, 1.0};
  return {Levy, -10.0, 10.0, 1.0};
}

// f(x) = g(R (x - s) + z*), s uniform in the middle 60% of the box; f* = 0 at s.
void MakeRotatedClassic(const std::string& base, Rng& rng, GeneratedProblem* p) {
  const Classic c = ClassicOf(base);
  const int d = p->dim;
  p->lower = Eigen::VectorXd::Constant(d, c.lower);
  p->upper = Eigen::VectorXd::Constant(d, c.upper);
  const double margin = 0.2 * (c.upper - c.lower);
  Eigen::VectorXd shift(d);
  for (int i = 0; i < d; ++i) shift(i) = Uniform(rng, c.lower + margin, c.upper - margin);
  const Eigen::MatrixXd rotation = RandomRotation(d, rng);
  const Eigen::VectorXd argmin = Eigen::VectorXd::Constant(d, c.argmin);
  p->value = [g = c.g, rotation, shift, argmin](const Eigen::VectorXd& x) {
    return g(rotation * (x - shift) + argmin);
  };
  p->min_value = 0.0;
  p->argmin = shift;
}

// Q' diag(lambda) Q with lambda log-spaced from 1 to `condition`.
Eigen::MatrixXd RandomQuadraticForm(int d, double condition, Rng& rng) {
  Eigen::VectorXd lambda(d);
  for (int i = 0; i < d; ++i)
    lambda(i) = d == 1 ? 1.0 : std::pow(condition, static_cast<double>(i) / (d - 1));
  const Eigen::MatrixXd q = RandomRotation(d, rng);
  return q.transpose() * lambda.asDiagonal() * q;
}

void MakeQuadratic(Rng& rng, GeneratedProblem* p) {
  const int d = p->dim;
  p->lower = Eigen::VectorXd::Constant(d, -5.0);
  p->upper = Eigen::VectorXd::Constant(d, 5.0);
  const double condition = std::pow(10.0, Uniform(rng, 3.0, 6.0));
  const Eigen::MatrixXd h = RandomQuadraticForm(d, condition, rng);
  Eigen::VectorXd centre(d);
  for (int i = 0; i < d; ++i) centre(i) = Uniform(rng, -3.0, 3.0);
  p->value = [h, centre](const Eigen::VectorXd& x) {
    const Eigen::VectorXd u = x - centre;
    return u.dot(h * u);
  };
  p->min_value = 0.0;
  p->argmin = centre;
}

// A convex quadratic on [0, 1]^d minimized at a boundary point p: every coordinate at a bound
// (corner) or 1..max(1, d/2) of them (face).
void MakeBoundaryQuadratic(bool corner, Rng& rng, GeneratedProblem* p) {
  const int d = p->dim;
  p->lower = Eigen::VectorXd::Zero(d);
  p->upper = Eigen::VectorXd::Ones(d);
  const Eigen::MatrixXd h = RandomQuadraticForm(d, std::pow(10.0, Uniform(rng, 1.0, 2.0)), rng);
  std::vector<int> order(static_cast<std::size_t>(d));
  for (int i = 0; i < d; ++i) order[static_cast<std::size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), rng);
  const int on_bound = corner ? d : std::uniform_int_distribution<int>(1, std::max(1, d / 2))(rng);
  Eigen::VectorXd argmin(d), slope = Eigen::VectorXd::Zero(d);
  const double mean_curvature = h.trace() / d;
  for (int i = 0; i < d; ++i) argmin(i) = Uniform(rng, 0.2, 0.8);
  for (int k = 0; k < on_bound; ++k) {
    const int i = order[static_cast<std::size_t>(k)];
    const bool at_upper = Uniform(rng, 0.0, 1.0) < 0.5;
    argmin(i) = at_upper ? 1.0 : 0.0;
    // The gradient at p points into the box along i (KKT: p is the minimum over the box).
    slope(i) = (at_upper ? -1.0 : 1.0) * Uniform(rng, 0.5, 2.0) * mean_curvature;
  }
  p->value = [h, argmin, slope](const Eigen::VectorXd& x) {
    const Eigen::VectorXd u = x - argmin;
    return u.dot(h * u) + slope.dot(u);
  };
  p->min_value = 0.0;
  p->argmin = argmin;
}

// Styblinski-Tang on [l_i, 5]: each coordinate's minimum at l_i or at an interior stationary
// point (roots of 2 t^3 - 16 t + 2.5, found by Newton's method), whichever is lower.
void MakeStyblinskiFace(Rng& rng, GeneratedProblem* p) {
  const int d = p->dim;
  p->lower.resize(d);
  p->upper = Eigen::VectorXd::Constant(d, 5.0);
  p->argmin.resize(d);
  double min_value = 0.0;
  for (int i = 0; i < d; ++i) {
    const double lo = Uniform(rng, -3.5, -1.5);
    p->lower(i) = lo;
    double best_t = StyblinskiTang1(lo) < StyblinskiTang1(5.0) ? lo : 5.0;
    for (double t : {-3.0, 0.0, 3.0}) {
      for (int it = 0; it < 100; ++it) t -= (2 * t * t * t - 16 * t + 2.5) / (6 * t * t - 16);
      if (t >= lo && t <= 5.0 && StyblinskiTang1(t) < StyblinskiTang1(best_t)) best_t = t;
    }
    p->argmin(i) = best_t;
    min_value += StyblinskiTang1(best_t);
  }
  p->value = [](const Eigen::VectorXd& x) {
    double sum = 0.0;
    for (int i = 0; i < x.size(); ++i) sum += StyblinskiTang1(x(i));
    return sum;
  };
  p->min_value = min_value;
}

// A GP sample path through random Fourier features: f(x) = sqrt(2 / m) sum_j w_j
// cos(omega_j . (x / l) + b_j), omega_j from the kernel's spectral density (standard normal for
// SE; multivariate t with 2 nu = 5 degrees of freedom for Matern-5/2), w_j ~ N(0, 1).
void MakeGpSample(bool matern, Rng& rng, GeneratedProblem* p) {
  const int d = p->dim, m = kFourierFeatures;
  p->lower = Eigen::VectorXd::Zero(d);
  p->upper = Eigen::VectorXd::Ones(d);
  Eigen::VectorXd inverse_lengthscales(d);
  for (int i = 0; i < d; ++i)
    inverse_lengthscales(i) = 1.0 / std::exp(Uniform(rng, std::log(0.1), std::log(0.4)));
  Eigen::MatrixXd omega = StandardNormalMatrix(m, d, rng);
  if (matern) {
    std::chi_squared_distribution<double> chi2(5.0);
    for (int j = 0; j < m; ++j) omega.row(j) *= std::sqrt(5.0 / chi2(rng));
  }
  omega = omega * inverse_lengthscales.asDiagonal();
  const Eigen::VectorXd weights = StandardNormalVector(m, rng) * std::sqrt(2.0 / m);
  Eigen::VectorXd phases(m);
  for (int j = 0; j < m; ++j) phases(j) = Uniform(rng, 0.0, 2.0 * kPi);
  p->value = [omega, weights, phases](const Eigen::VectorXd& x) {
    return weights.dot(((omega * x) + phases).array().cos().matrix());
  };
  p->min_value = std::numeric_limits<double>::quiet_NaN();
}

// kRelativeNoise x the standard deviation of f over 1000 uniform points of the box.
double NoiseLevel(const GeneratedProblem& p, Rng& rng) {
  constexpr int kPoints = 1000;
  Eigen::VectorXd values(kPoints);
  Eigen::VectorXd x(p.dim);
  for (int k = 0; k < kPoints; ++k) {
    for (int i = 0; i < p.dim; ++i) x(i) = Uniform(rng, p.lower(i), p.upper(i));
    values(k) = p.value(x);
  }
  const double mean = values.mean();
  return kRelativeNoise * std::sqrt((values.array() - mean).square().sum() / (kPoints - 1));
}

int KindIndex(const std::string& kind) {
  const std::vector<std::string>& kinds = FamilyKinds();
  const auto it = std::find(kinds.begin(), kinds.end(), kind);
  return it == kinds.end() ? -1 : static_cast<int>(it - kinds.begin());
}

std::string BaseKind(const std::string& kind) {
  const std::string suffix = "-noisy";
  if (kind.size() > suffix.size() &&
      kind.compare(kind.size() - suffix.size(), suffix.size(), suffix) == 0)
    return kind.substr(0, kind.size() - suffix.size());
  return kind;
}

void MakeKind(const std::string& base, Rng& rng, GeneratedProblem* p) {
  if (base == "ackley" || base == "rastrigin" || base == "rosenbrock" || base == "levy")
    MakeRotatedClassic(base, rng, p);
  else if (base == "quadratic")
    MakeQuadratic(rng, p);
  else if (base == "face" || base == "corner")
    MakeBoundaryQuadratic(base == "corner", rng, p);
  else if (base == "styblinski-face")
    MakeStyblinskiFace(rng, p);
  else
    MakeGpSample(base == "gp-matern", rng, p);
}

}  // namespace

FamilyHalf ParseFamilyHalf(const std::string& text) {
  if (text == "tuning") return FamilyHalf::kTuning;
  if (text == "heldout") return FamilyHalf::kHeldOut;
  throw std::invalid_argument("--half '" + text + "': must be tuning or heldout");
}

const std::vector<std::string>& FamilyKinds() {
  static const std::vector<std::string> kinds = {
      "ackley",      "rastrigin",        "rosenbrock",      "levy",  "quadratic",
      "face",        "corner",           "styblinski-face", "gp-se", "gp-matern",
      "gp-se-noisy", "rosenbrock-noisy", "corner-noisy"};
  return kinds;
}

std::vector<std::string> HalfNames(const std::vector<std::string>& kinds, FamilyHalf half,
                                   int low_min, int low_max, int high_min, int high_max) {
  std::vector<std::string> names;
  const unsigned parity = half == FamilyHalf::kHeldOut ? 1u : 0u;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    for (unsigned instance = 0; instance < 2; ++instance) {
      const unsigned seed = 4u * static_cast<unsigned>(k) + 2u * instance + parity;
      Rng rng = SeededRng({seed, 0x44494dULL});
      const int dim = instance == 0 ? std::uniform_int_distribution<int>(low_min, low_max)(rng)
                                    : std::uniform_int_distribution<int>(high_min, high_max)(rng);
      names.push_back(kinds[k] + "-" + std::to_string(dim) + "d-" + std::to_string(seed));
    }
  }
  return names;
}

std::vector<std::string> FamilyProblemNames(FamilyHalf half) {
  return HalfNames(FamilyKinds(), half, 2, 5, 6, 10);
}

FamilyHalf HalfOf(const std::string& name) {
  const std::size_t dash = name.rfind('-');
  const unsigned long seed = std::stoul(name.substr(dash + 1));
  return seed % 2 == 0 ? FamilyHalf::kTuning : FamilyHalf::kHeldOut;
}

ProblemName ParseProblemName(const std::string& name, const std::vector<std::string>& kinds,
                             int max_dim) {
  const std::size_t seed_dash = name.rfind('-');
  const std::size_t dim_dash = seed_dash == std::string::npos || seed_dash == 0
                                   ? std::string::npos
                                   : name.rfind('-', seed_dash - 1);
  ProblemName parsed;
  if (dim_dash != std::string::npos) {
    parsed.kind = name.substr(0, dim_dash);
    const std::string dim = name.substr(dim_dash + 1, seed_dash - dim_dash - 1);
    const std::string seed = name.substr(seed_dash + 1);
    const bool digits = !seed.empty() && seed.find_first_not_of("0123456789") == std::string::npos;
    if (dim.size() >= 2 && dim.back() == 'd' &&
        dim.find_first_not_of("0123456789") == dim.size() - 1 && digits) {
      parsed.dim = std::stoi(dim.substr(0, dim.size() - 1));
      parsed.seed = static_cast<unsigned>(std::stoul(seed));
    }
  }
  if (std::find(kinds.begin(), kinds.end(), parsed.kind) == kinds.end() || parsed.dim < 1 ||
      parsed.dim > max_dim)
    throw std::invalid_argument("problem '" + name +
                                "': expected <kind>-<d>d-<seed> with a known kind and 1 <= d <= " +
                                std::to_string(max_dim));
  return parsed;
}

GeneratedProblem MakeFamilyProblem(const std::string& name) {
  const ProblemName parsed = ParseProblemName(name, FamilyKinds(), 20);
  GeneratedProblem p;
  p.name = name;
  p.kind = parsed.kind;
  p.dim = parsed.dim;
  p.instance_seed = parsed.seed;
  Rng rng = SeededRng({p.instance_seed, static_cast<std::uint64_t>(p.dim),
                       static_cast<std::uint64_t>(KindIndex(p.kind))});
  const std::string base = BaseKind(p.kind);
  MakeKind(base, rng, &p);
  if (base != p.kind) p.noise_sd = NoiseLevel(p, rng);
  return p;
}

}  // namespace bench
}  // namespace gpbandit
