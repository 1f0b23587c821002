#include "arrays.h"

#include <sstream>
#include <stdexcept>
#include <utility>

namespace gpbandit {
namespace python {
namespace {

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::string ShapeText(const py::array& a) {
  std::ostringstream out;
  out << "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) out << (i ? ", " : "") << a.shape(i);
  out << (a.ndim() == 1 ? ",)" : ")");
  return out.str();
}

// A C-contiguous float64 array of the object; ValueError naming the field when numpy cannot
// convert it (strings, ragged lists, None).
DoubleArray AsDoubles(const py::handle& object, const std::string& field) {
  // ensure() converts (int lists, float32, Fortran order) without copying float64 C arrays.
  DoubleArray array = DoubleArray::ensure(object);
  if (!array) {
    PyErr_Clear();
    throw std::invalid_argument(field + " must be an array of numbers, got " +
                                std::string(py::str(py::type::of(object).attr("__name__"))) + " " +
                                std::string(py::repr(object)));
  }
  return array;
}

// Frees a heap Eigen object when the numpy array that views it dies.
template <typename T>
py::capsule Owner(T* object) {
  return py::capsule(object, [](void* p) { delete static_cast<T*>(p); });
}

}  // namespace

Eigen::VectorXd ToVector(const py::handle& object, const std::string& field, bool allow_none) {
  if (object.is_none()) {
    if (allow_none) return Eigen::VectorXd();
    throw std::invalid_argument(field + " must be a 1-D array of numbers, got None");
  }
  const DoubleArray array = AsDoubles(object, field);
  if (array.ndim() > 1)
    throw std::invalid_argument(field + " must be a 1-D array (one point), got shape " +
                                ShapeText(array));
  return Eigen::Map<const Eigen::VectorXd>(array.data(), array.size());
}

Eigen::MatrixXd RowsToColumns(const py::handle& object, const std::string& field, bool allow_none) {
  if (object.is_none()) {
    if (allow_none) return Eigen::MatrixXd();
    throw std::invalid_argument(field + " must be a 2-D array (one point per row), got None");
  }
  const DoubleArray array = AsDoubles(object, field);
  if (array.ndim() != 2)
    throw std::invalid_argument(field + " must be a 2-D array with one point per row, got shape " +
                                ShapeText(array));
  const Eigen::Index rows = array.shape(0), cols = array.shape(1);
  return Eigen::Map<const Eigen::MatrixXd>(array.data(), cols, rows);
}

Eigen::MatrixXd ToMatrix(const py::handle& object, const std::string& field) {
  const DoubleArray array = AsDoubles(object, field);
  if (array.ndim() != 2)
    throw std::invalid_argument(field + " must be a 2-D array, got shape " + ShapeText(array));
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const RowMajor>(array.data(), array.shape(0), array.shape(1));
}

py::array_t<double> VectorToArray(Eigen::VectorXd v) {
  auto* owned = new Eigen::VectorXd(std::move(v));
  return py::array_t<double>({owned->size()}, {sizeof(double)}, owned->data(), Owner(owned));
}

py::array_t<double> ColumnsToRows(Eigen::MatrixXd m) {
  auto* owned = new Eigen::MatrixXd(std::move(m));
  const py::ssize_t n = owned->cols(), d = owned->rows();
  return py::array_t<double>(
      {n, d},
      {static_cast<py::ssize_t>(sizeof(double)) * d, static_cast<py::ssize_t>(sizeof(double))},
      owned->data(), Owner(owned));
}

py::array_t<double> MatrixToArray(const Eigen::MatrixXd& m) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  auto* owned = new RowMajor(m);
  const py::ssize_t rows = owned->rows(), cols = owned->cols();
  return py::array_t<double>(
      {rows, cols},
      {static_cast<py::ssize_t>(sizeof(double)) * cols, static_cast<py::ssize_t>(sizeof(double))},
      owned->data(), Owner(owned));
}

}  // namespace python
}  // namespace gpbandit
