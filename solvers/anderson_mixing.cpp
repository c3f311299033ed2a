#include "solvers/anderson_mixing.hpp"

#include "nscd/core/error.hpp"

#include <Eigen/Cholesky>

#include <algorithm>

namespace nscd::solvers::detail {

AndersonMixing::AndersonMixing(int depth, Eigen::Index nx, Eigen::Index ny) : m_depth(depth) {
  NSCD_DEMAND(depth >= 0 && depth <= kMaxDepth && nx >= 0 && ny >= 0);
  if (depth == 0) return;
  m_dF.resize(nx, depth);
  m_dG.resize(nx, depth);
  m_dY.resize(ny, depth);
  m_gram.resize(depth, depth);
}

bool AndersonMixing::start_sweep(Eigen::Ref<Eigen::VectorXd> x, Eigen::Ref<Eigen::VectorXd> y) {
  if (m_depth == 0) return false;
  bool mixed = false;
  if (m_started) {
    record(x, y);
    pause_if_stalled();
    mixed = m_pause_left == 0 && m_columns > 0 && mix(x, y);
  }
  m_start = x;
  m_started = true;
  return mixed;
}

void AndersonMixing::record(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::Ref<const Eigen::VectorXd>& y) {
  m_f_next = x - m_start;
  const double f_norm = m_f_next.norm();
  if (m_recorded && f_norm > m_f_norm) {
    restart();  // the safeguard
  } else if (m_recorded) {
    const int c = m_next;
    m_dF.col(c) = m_f_next - m_f;
    m_dG.col(c) = x - m_g;
    m_dY.col(c) = y - m_y;
    m_columns = std::min(m_columns + 1, m_depth);
    m_next = (c + 1) % m_depth;
    for (int j = 0; j < m_columns; ++j) m_gram(c, j) = m_gram(j, c) = m_dF.col(c).dot(m_dF.col(j));
  }
  m_f.swap(m_f_next);
  m_g = x;
  m_y = y;
  m_f_norm = f_norm;
  m_recorded = true;
}

void AndersonMixing::pause_if_stalled() {
  ++m_sweeps;
  if (m_pause_left > 0 && --m_pause_left == 0) {  // the pause ends: afresh
    restart();
    m_lowest = m_f_norm;
    m_lowest_at = m_sweeps;
  } else if (m_pause_left == 0 && m_f_norm < m_lowest) {
    m_lowest = m_f_norm;
    m_lowest_at = m_sweeps;
  } else if (m_pause_left == 0 && m_sweeps - m_lowest_at >= kStall) {
    m_pause_left = kStall;
    ++m_pauses;
  }
}

void AndersonMixing::restart() {
  m_columns = 0;
  m_next = 0;
  ++m_restarts;
}

bool AndersonMixing::mix(Eigen::Ref<Eigen::VectorXd> x, Eigen::Ref<Eigen::VectorXd> y) {
  const int k = m_columns;
  // eq. (2) by the normal equations, with a Tikhonov term at round-off level of ΔFᵀΔF's scale
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDepth, kMaxDepth>;
  using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxDepth, 1>;
  Small A = m_gram.topLeftCorner(k, k);
  A.diagonal().array() += 1e-12 * A.diagonal().maxCoeff();
  const SmallVector b = m_dF.leftCols(k).transpose() * m_f;
  const SmallVector gamma = Eigen::LDLT<Small>(A).solve(b);
  if (!gamma.allFinite()) {
    restart();
    return false;
  }
  // eqs. (3)–(4)
  x.noalias() -= m_dG.leftCols(k) * gamma;
  if (y.size() > 0) y.noalias() -= m_dY.leftCols(k) * gamma;
  ++m_mixed;
  return true;
}

}  // namespace nscd::solvers::detail
