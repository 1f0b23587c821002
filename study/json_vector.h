// Eigen vectors as JSON arrays of numbers, shared by a study's records (observation_log.cc) and
// its header (log_header.cc), with messages that name the field a bad value came from.
// Internal (not installed API).
#ifndef GPBANDIT_STUDY_JSON_VECTOR_H_
#define GPBANDIT_STUDY_JSON_VECTOR_H_

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace gpbandit {
namespace internal {

inline nlohmann::json VectorToJson(const Eigen::VectorXd& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}

// j[field] as a T. Throws std::runtime_error "field "name" is missing" or "... has the wrong
// type: <value>".
template <typename T>
T Field(const nlohmann::json& j, const char* field) {
  if (!j.contains(field))
    throw std::runtime_error(std::string("field \"") + field + "\" is missing");
  try {
    return j.at(field).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(std::string("field \"") + field +
                             "\" has the wrong type: " + j.at(field).dump());
  }
}

// An array of numbers as a vector; `what` names it in the message of a std::runtime_error
// (not an array, an item that is not a number).
inline Eigen::VectorXd JsonToVector(const nlohmann::json& a, const std::string& what) {
  if (!a.is_array()) throw std::runtime_error(what + " is not an array of numbers");
  Eigen::VectorXd v(static_cast<Eigen::Index>(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number())
      throw std::runtime_error(what + "[" + std::to_string(i) +
                               "] is not a number: " + a[i].dump());
    v(static_cast<Eigen::Index>(i)) = a[i].get<double>();
  }
  return v;
}

// j[field] as a vector (Field and JsonToVector).
inline Eigen::VectorXd VectorField(const nlohmann::json& j, const char* field) {
  return JsonToVector(Field<nlohmann::json>(j, field), std::string("field \"") + field + "\"");
}

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_JSON_VECTOR_H_
