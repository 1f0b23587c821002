// A kernel as a user would write one: it forwards only the pairwise definitions (Value,
// AccumulateGradientA, GradientLogParams) and the bookkeeping to a wrapped kernel, and so runs
// every default of the Kernel interface (generic batch forms, no features, kinds kOther). The
// reference against which the kernels' fast hooks are tested, and the kernel GP-TS must refuse
// on a box.
#ifndef GPBANDIT_TESTS_USER_KERNEL_H_
#define GPBANDIT_TESTS_USER_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {
namespace testing {

class UserKernel : public Kernel {
 public:
  explicit UserKernel(std::unique_ptr<Kernel> inner) : inner_(std::move(inner)) {}
  std::unique_ptr<Kernel> Clone() const override {
    return std::make_unique<UserKernel>(inner_->Clone());
  }
  std::string Describe() const override { return "user(" + inner_->Describe() + ")"; }
  int MinInputDim() const override { return inner_->MinInputDim(); }
  int NumParams() const override { return inner_->NumParams(); }
  Eigen::VectorXd GetLogParams() const override { return inner_->GetLogParams(); }
  void SetLogParams(const ConstVectorRef& p) override { inner_->SetLogParams(p); }
  std::vector<std::string> ParamNames() const override { return inner_->ParamNames(); }
  double Value(const ConstVectorRef& a, const ConstVectorRef& b) const override {
    return inner_->Value(a, b);
  }
  void AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b, double scale,
                           VectorRef grad) const override {
    inner_->AccumulateGradientA(a, b, scale, grad);
  }
  void GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                         VectorRef grad) const override {
    inner_->GradientLogParams(a, b, grad);
  }
  void ValidatePoint(const ConstVectorRef& x, const std::string& field) const override {
    inner_->ValidatePoint(x, field);
  }

 private:
  std::unique_ptr<Kernel> inner_;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_USER_KERNEL_H_
