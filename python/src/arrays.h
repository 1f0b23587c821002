// numpy <-> Eigen for the Python module, in the Python convention: a point is a 1-D float64
// array, a batch of points a 2-D array with ONE POINT PER ROW (n x d). gpbandit's C++ API holds
// batches one point per column (d x n); a C-contiguous n x d array has exactly the memory layout
// of a column-major d x n matrix, so the conversions map it instead of transposing.
//
// Copies: an input is copied once, into the Eigen object the C++ API takes by const reference
// (array-likes that are not float64 are converted by numpy first). An output is never copied:
// the Eigen object is moved to the heap and the numpy array points into it (a capsule frees it).
//
// Every function here needs the GIL. Errors: std::invalid_argument (ValueError) naming the
// argument and its shape.
#ifndef GPBANDIT_PYTHON_SRC_ARRAYS_H_
#define GPBANDIT_PYTHON_SRC_ARRAYS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <string>

namespace gpbandit {
namespace python {

namespace py = pybind11;

// A 1-D array-like of numbers (a 0-d one is taken as one number). None gives an empty vector
// when allow_none, and is refused otherwise.
Eigen::VectorXd ToVector(const py::handle& object, const std::string& field,
                         bool allow_none = false);
// A 2-D array-like, one point per row (n x d), as the d x n matrix of its columns. A 1-D one is
// refused (the caller means one point or one coordinate per point: it must say which). None
// gives a 0 x 0 matrix when allow_none.
Eigen::MatrixXd RowsToColumns(const py::handle& object, const std::string& field,
                              bool allow_none = false);
// A 2-D array-like as the same matrix (n x m stays n x m): a matrix that is not a batch of
// points, e.g. an index kernel's covariance.
Eigen::MatrixXd ToMatrix(const py::handle& object, const std::string& field);

// A 1-D float64 array over v's storage.
py::array_t<double> VectorToArray(Eigen::VectorXd v);
// The columns of a d x n matrix as the rows of an n x d C-contiguous float64 array over its
// storage.
py::array_t<double> ColumnsToRows(Eigen::MatrixXd m);
// An n x m matrix as an n x m float64 array (a copy in numpy's row-major order).
py::array_t<double> MatrixToArray(const Eigen::MatrixXd& m);

}  // namespace python
}  // namespace gpbandit

#endif  // GPBANDIT_PYTHON_SRC_ARRAYS_H_
