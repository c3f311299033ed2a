// FCLIB problems in and out: a written problem and solution read back exactly; global problems
// condensed as W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w and solved as Siconos does; clear errors.

#include "nscd/io/fclib_file.hpp"

#include "nscd/core/error.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/nlgs.hpp"

#include <gtest/gtest.h>

#include <hdf5.h>
extern "C" {
#include <fclib.h>
}

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace nscd::io {
namespace {

namespace fs = std::filesystem;

fs::path temp_file(const std::string& name) { return fs::temp_directory_path() / ("nscd_test_fclib_" + name); }

solvers::FrictionProblem small_problem() {
  Eigen::MatrixXd W(6, 6);
  W << 2.0, 0.1, 0.0, 0.5, 0.0, 0.0,  //
      0.1, 1.5, 0.2, 0.0, 0.3, 0.0,   //
      0.0, 0.2, 1.2, 0.0, 0.0, 0.1,   //
      0.5, 0.0, 0.0, 3.0, 0.0, 0.0,   //
      0.0, 0.3, 0.0, 0.0, 2.0, 0.4,   //
      0.0, 0.0, 0.1, 0.0, 0.4, 1.0;
  solvers::FrictionProblem p;
  p.W = solvers::DelassusMatrix::from_dense(W);
  p.q.resize(6);
  p.q << -1.0, 0.2, 0.1, -0.5, -0.3, 0.0;
  p.mu = Eigen::Vector2d(0.3, 0.6);
  return p;
}

TEST(FclibFile, ProblemAndSolutionRoundTripExactly) {
  const solvers::FrictionProblem p = small_problem();
  Eigen::VectorXd r(6), u(6);
  r << 1, 0.1, -0.2, 0.5, 0, 0.05;
  u << 0, 0.3, 0.4, 0.1, -0.2, 0;
  const fs::path file = temp_file("roundtrip.hdf5");
  write_fclib_solution(file, p, r, u);

  // binary doubles go through HDF5 unchanged
  const FclibProblem read = read_fclib_problem(file);
  EXPECT_FALSE(read.is_global);
  EXPECT_EQ(read.problem.W.to_dense(), p.W.to_dense());
  EXPECT_EQ(read.problem.q, p.q);
  EXPECT_EQ(read.problem.mu, p.mu);
  const std::unique_ptr<fclib_solution, void (*)(fclib_solution*)> solution(
      fclib_read_solution(file.string().c_str()), [](fclib_solution* s) { fclib_delete_solutions(s, 1); });
  ASSERT_NE(solution, nullptr);
  EXPECT_EQ(Eigen::Map<const Eigen::VectorXd>(solution->r, 6), r);
  EXPECT_EQ(Eigen::Map<const Eigen::VectorXd>(solution->u, 6), u);
}

TEST(FclibFile, GlobalProblemIsCondensedAndSolvedLikeSiconos) {
  const fs::path file = fs::path(NSCD_TEST_DATA_DIR) / "fclib" / "Box_Stacks-i0122-82-5.hdf5";
  const FclibProblem read = read_fclib_problem(file);
  EXPECT_TRUE(read.is_global);
  EXPECT_EQ(read.problem.nc(), 82);
  // W = Hᵀ M⁻¹ H is symmetric positive semi-definite (round-off of the products: 1e-12 relative)
  const Eigen::MatrixXd W = read.problem.W.to_dense();
  EXPECT_LT((W - W.transpose()).cwiseAbs().maxCoeff(), 1e-12 * W.cwiseAbs().maxCoeff());
  // tests/data/README.md: Siconos's NSGS reaches 1e-8 in 33 iterations; an NLGS with the same
  // error measure on the same local problem must too, give or take a few sweeps
  solvers::NlgsOptions options;
  options.stopping.tolerance = 1e-8;
  options.stopping.max_iterations = 100;
  const solvers::SolverResult result = solvers::solve_nlgs(read.problem, options, Eigen::VectorXd());
  EXPECT_EQ(result.status, solvers::SolverStatus::Converged) << result.error;
  EXPECT_LT(result.iterations, 40);
}

TEST(FclibFile, BadFilesAreInputErrorsNamingTheFile) {
  const auto message = [](const fs::path& file) {
    try {
      read_fclib_problem(file);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(temp_file("missing.hdf5")).find("no such file"), std::string::npos);

  const fs::path text = temp_file("text.hdf5");
  std::ofstream(text) << "not hdf5";
  EXPECT_NE(message(text).find("not an HDF5 file"), std::string::npos);

  const fs::path empty = temp_file("empty.hdf5");
  H5Fclose(H5Fcreate(empty.string().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  const std::string no_problem = message(empty);
  EXPECT_NE(no_problem.find(empty.string()), std::string::npos) << no_problem;
  EXPECT_NE(no_problem.find("no FCLIB problem"), std::string::npos) << no_problem;
}

// A valid problem file altered in one place, as tools/fuzz.sh's findings were (W/x missing, a
// damaged info group: libfclib's reader ended the process with exit(1)). Each alteration must be
// an InputError naming the file and the dataset (fclib_hdf5.hpp).
class DamagedFclibFile : public testing::Test {
 protected:
  // the valid file, then `alter` applied to it through HDF5
  std::string damaged(const std::string& name, void (*alter)(hid_t file)) {
    const fs::path file = temp_file("damaged_" + name + ".hdf5");
    fs::remove(file);
    write_fclib_solution(file, small_problem(), Eigen::VectorXd::Zero(6), Eigen::VectorXd::Zero(6));
    const hid_t h5 = H5Fopen(file.string().c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    alter(h5);
    H5Fclose(h5);
    try {
      read_fclib_problem(file);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
      return std::string(e.what());
    }
    return std::string("no error");
  }
};

// replaces the dataset `path` by `values`, stored as doubles or ints (the type of T)
template <class T>
void replace(hid_t h5, const char* path, const std::vector<T>& values) {
  const hid_t type = std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT;
  H5Ldelete(h5, path, H5P_DEFAULT);
  const hsize_t n = values.size();
  const hid_t space = H5Screate_simple(1, &n, nullptr);
  const hid_t set = H5Dcreate2(h5, path, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(set);
  H5Sclose(space);
}

void replace_doubles(hid_t h5, const char* path, const std::vector<double>& values) { replace(h5, path, values); }
void replace_ints(hid_t h5, const char* path, const std::vector<int>& values) { replace(h5, path, values); }

TEST_F(DamagedFclibFile, MissingValuesOfW) {
  const std::string e = damaged("no_x", [](hid_t h5) { H5Ldelete(h5, "/fclib_local/W/x", H5P_DEFAULT); });
  EXPECT_NE(e.find("'/fclib_local/W/x' is missing"), std::string::npos) << e;
}

TEST_F(DamagedFclibFile, CompressedStartsLongerThanTheBufferLibfclibAllocates) {
  // W is 6 × 6 in compressed columns: 7 starts; 9 would overflow libfclib's buffer
  const std::string e = damaged("long_p", [](hid_t h5) { replace_ints(h5, "/fclib_local/W/p", {0, 1, 2, 3, 4, 5, 6, 7, 8}); });
  EXPECT_NE(e.find("'/fclib_local/W/p' has 9 elements, expected 7"), std::string::npos) << e;
}

TEST_F(DamagedFclibFile, FrictionCoefficientsOfTheWrongCountOrType) {
  const std::string count = damaged("mu_count", [](hid_t h5) { replace_doubles(h5, "/fclib_local/vectors/mu", {0.3, 0.3, 0.3}); });
  EXPECT_NE(count.find("'/fclib_local/vectors/mu' has 3 elements, expected 2"), std::string::npos) << count;
  const std::string type = damaged("mu_type", [](hid_t h5) { replace_ints(h5, "/fclib_local/vectors/mu", {1, 1}); });
  EXPECT_NE(type.find("'/fclib_local/vectors/mu' has the wrong type"), std::string::npos) << type;
}

TEST_F(DamagedFclibFile, ZeroSpaceDimension) {
  // libfclib divides W's row count by it
  const std::string e = damaged("spacedim", [](hid_t h5) { replace_ints(h5, "/fclib_local/spacedim", {0}); });
  EXPECT_NE(e.find("'/fclib_local/spacedim' is 0, expected 2 or 3"), std::string::npos) << e;
}

TEST_F(DamagedFclibFile, InfoTitleThatIsNotAStringIsIgnored) {
  // libfclib stopped the process on it (the fuzzer's second finding); nscd does not read info
  const std::string e = damaged("info_title", [](hid_t h5) {
    H5Gclose(H5Gcreate2(h5, "/fclib_local/info", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Gclose(H5Gcreate2(h5, "/fclib_local/info/title", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  });
  EXPECT_EQ(e, "no error");
}

TEST_F(DamagedFclibFile, RowIndexOutsideTheMatrix) {
  // the count is right, the value is not: found once libfclib has read W
  const std::string e = damaged("row_index", [](hid_t h5) {
    const hid_t set = H5Dopen2(h5, "/fclib_local/W/i", H5P_DEFAULT);
    const hid_t space = H5Dget_space(set);
    std::vector<int> rows(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    H5Dread(set, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data());
    rows[0] = 6;
    H5Dwrite(set, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data());
    H5Sclose(space);
    H5Dclose(set);
  });
  EXPECT_NE(e.find("'/fclib_local/W/i' holds 6 at 0, expected 0 to 5"), std::string::npos) << e;
}

}  // namespace
}  // namespace nscd::io
