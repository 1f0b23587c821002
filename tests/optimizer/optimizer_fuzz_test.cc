// 10,000 random ask/tell/ask_batch calls, invalid ones mixed in: no crash, no NaN or
// out-of-box suggestion, every valid call succeeds, every invalid one is refused with
// std::invalid_argument, and every refused call leaves the optimizer exactly as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kInf;
using testing::kNaN;

class Fuzzer {
 public:
  Fuzzer(std::uint64_t seed, bool finite_set) : rng_(seed), finite_set_(finite_set) {}

  std::unique_ptr<Optimizer> Make(std::uint64_t seed) {
    OptimizerOptions o = testing::CheapOptions(seed);
    o.refit.enabled = false;  // fixed hyperparameters keep 10,000 calls fast
    o.maximizer_raw_samples = 16;
    o.maximizer_starts = 1;
    o.maximizer_iterations = 5;
    o.initial_design_size = 3;
    const NonFiniteRewardPolicy policies[] = {NonFiniteRewardPolicy::kThrow,
                                              NonFiniteRewardPolicy::kSkip,
                                              NonFiniteRewardPolicy::kImputeWorst};
    o.non_finite_rewards = policies[Int(0, 2)];
    Domain d = finite_set_ ? Domain::FiniteSet(testing::UniformPoints(2, 30, -2, 3, rng_))
                           : Domain::Box(Eigen::Vector2d(-2, 0), Eigen::Vector2d(3, 0));
    d = d.WithContext(1, Eigen::VectorXd::Constant(1, -1), Eigen::VectorXd::Constant(1, 1));
    const char* strategies[] = {"cgp-ucb", "ei", "gp-ts", "mean", "variance"};
    const std::string strategy = strategies[Int(0, 4)];
    // GP-TS's sample path is the costly part; its size does not matter here.
    const StrategyParams s =
        strategy == "gp-ts" ? StrategyParams().With("num_features", 64) : StrategyParams();
    return std::make_unique<Optimizer>(d, nullptr, strategy, s, o);
  }

  bool Coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double Real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  Eigen::VectorXd Context(bool valid) {
    if (valid) return Eigen::VectorXd::Constant(1, Real(-1, 1));
    switch (Int(0, 3)) {
      case 0:
        return Eigen::VectorXd();
      case 1:
        return Eigen::Vector2d(0, 0);
      case 2:
        return Eigen::VectorXd::Constant(1, kNaN);
      default:
        return Eigen::VectorXd::Constant(1, 1.5);
    }
  }

  Eigen::VectorXd Action(const Optimizer& opt, bool valid) {
    const Domain& d = opt.domain();
    Eigen::VectorXd x(2);
    for (int i = 0; i < 2; ++i) x(i) = Real(d.lower()(i), d.upper()(i));
    if (valid) return x;
    switch (Int(0, 3)) {
      case 0:
        return Eigen::Vector3d(0, 0, 0);
      case 1:
        x(Int(0, 1)) = kNaN;
        return x;
      case 2:
        x(0) = d.upper()(0) + 0.5;
        return x;
      default:
        x(1) = d.lower()(1) - 1e-9;
        return x;
    }
  }

  double Reward(bool finite) {
    if (finite) return Real(-10, 10);
    const double bad[] = {kNaN, kInf, -kInf};
    return bad[Int(0, 2)];
  }

  std::mt19937_64 rng_;
  bool finite_set_;
};

void ExpectSuggestionValid(const Domain& d, const Eigen::MatrixXd& X, int call) {
  for (int j = 0; j < X.cols(); ++j)
    for (int i = 0; i < d.action_dim(); ++i) {
      ASSERT_TRUE(std::isfinite(X(i, j))) << "call " << call;
      ASSERT_GE(X(i, j), d.lower()(i)) << "call " << call;
      ASSERT_LE(X(i, j), d.upper()(i)) << "call " << call;
    }
}

// One random call: its inputs are drawn first, so that whether they are valid is known
// before the optimizer sees them.
struct FuzzCall {
  bool invalid = false;       // the inputs break the API's contract: the call must be refused
  std::function<void()> run;  // makes the call (and checks its suggestions)
};

FuzzCall RandomCall(Fuzzer& fz, Optimizer& opt, int call, int* suggestions) {
  const bool valid = fz.Coin(0.7);
  const int op = fz.Int(0, 9);
  FuzzCall c;
  c.invalid = !valid;
  if (op < 3) {
    const Eigen::VectorXd z = fz.Context(valid);
    c.run = [&opt, z, call, suggestions] {
      ExpectSuggestionValid(opt.domain(), opt.Ask(z), call);
      ++*suggestions;
    };
  } else if (op < 4) {
    const int q = valid ? fz.Int(1, 3) : (fz.Coin(0.5) ? fz.Int(-2, 0) : 31);
    // q = 31 exceeds the 30 candidates of a finite set; on a box it is a valid batch size.
    c.invalid = q < 1 || (opt.domain().kind() == DomainKind::kFiniteSet && q > 30);
    const Eigen::VectorXd z = fz.Context(valid || q < 1 || q > 30);
    c.run = [&opt, q, z, call, suggestions] {
      const Eigen::MatrixXd X = opt.AskBatch(q, z);
      ASSERT_EQ(X.cols(), q) << "call " << call;
      ExpectSuggestionValid(opt.domain(), X, call);
      ++*suggestions;
    };
  } else if (op < 8) {
    // Mostly tell a pending point, as a host does; sometimes a free point. An invalid call has
    // a bad action or a bad context (and perhaps a non-finite reward).
    const Eigen::MatrixXd pending = opt.pending_actions();
    const Eigen::MatrixXd pending_z = opt.pending_contexts();
    Eigen::VectorXd x, z;
    if (valid && pending.cols() > 0 && fz.Coin(0.8)) {
      const int j = fz.Int(0, static_cast<int>(pending.cols()) - 1);
      x = pending.col(j);
      z = pending_z.col(j);
    } else {
      const bool bad_x = !valid && fz.Coin(0.5);
      x = fz.Action(opt, !bad_x);
      z = fz.Context(valid || bad_x);
    }
    const double y = fz.Reward(valid || fz.Coin(0.3));
    c.run = [&opt, x, z, y] { opt.Tell(x, z, y); };
  } else if (op < 9) {
    // The second column is invalid in an invalid call; a 3-vector makes X 3 x 2.
    const Eigen::VectorXd first = fz.Action(opt, true);
    const Eigen::VectorXd second = fz.Action(opt, valid);
    Eigen::MatrixXd X = Eigen::MatrixXd::Zero(std::max(first.size(), second.size()), 2);
    X.col(0).head(first.size()) = first;
    X.col(1).head(second.size()) = second;
    Eigen::MatrixXd Z(1, 2);
    Z << fz.Real(-1, 1), fz.Real(-1, 1);
    const Eigen::Vector2d y(fz.Reward(true), fz.Reward(true));
    c.run = [&opt, X, Z, y] { opt.TellMany(X, Z, y); };
  } else if (valid) {
    c.run = [&opt] { opt.ClearPending(); };
  } else {
    const Eigen::VectorXd z = fz.Context(false);
    c.run = [&opt, z] { opt.Ask(z); };
  }
  return c;
}

void RunFuzz(bool finite_set, std::uint64_t seed) {
  Fuzzer fz(seed, finite_set);
  std::unique_ptr<Optimizer> opt;
  int rejected = 0, accepted = 0, suggestions = 0;
  for (int call = 0; call < 5000; ++call) {
    if (call % 400 == 0) opt = fz.Make(seed + static_cast<std::uint64_t>(call));
    const std::string before = opt->Fingerprint();
    const FuzzCall c = RandomCall(fz, *opt, call, &suggestions);
    try {
      c.run();
    } catch (const std::invalid_argument& e) {
      ++rejected;
      ASSERT_TRUE(c.invalid) << "call " << call << " (" << opt->strategy_name()
                             << "): a valid call was refused: " << e.what();
      ASSERT_EQ(opt->Fingerprint(), before) << "call " << call << ": " << e.what();
      continue;
    }
    if (::testing::Test::HasFatalFailure()) return;
    ++accepted;
    ASSERT_FALSE(c.invalid) << "call " << call << ": an invalid call was accepted";
  }
  std::cout << "[ fuzz     ] suggestions " << suggestions << ", accepted calls " << accepted
            << ", rejected " << rejected << "\n";
  EXPECT_GT(rejected, 500);
  EXPECT_GT(suggestions, 1000);
}

TEST(OptimizerFuzzTest, BoxWithFixedDimensionAndContext) {
  RunFuzz(false, testing::TestSeed(2024));
}

TEST(OptimizerFuzzTest, FiniteSetWithContext) { RunFuzz(true, testing::TestSeed(4048)); }

}  // namespace
}  // namespace gpbandit
