#include "study/named_records.h"

#include <nlohmann/json.hpp>

#include "space/parameter_space_json.h"

namespace gpbandit {

std::string WithNamedValues(const std::string& record, const Domain& domain,
                            const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  if (domain.action_space() == nullptr && domain.context_space() == nullptr) return record;
  // The records are nlohmann objects (sorted keys), and doubles print round-trip exact, so
  // parsing and printing again changes nothing but the added fields.
  nlohmann::json j = nlohmann::json::parse(record);
  if (domain.action_space() != nullptr)
    j["params"] = internal::NamedValuesToJson(*domain.action_space(), x);
  if (domain.context_space() != nullptr)
    j["context_params"] = internal::NamedValuesToJson(*domain.context_space(), z);
  return j.dump();
}

}  // namespace gpbandit
