#include "nscd/step/driven_motion.hpp"

#include <algorithm>
#include <cmath>

namespace nscd {

DrivenMotion::DrivenMotion(const io::Motion& motion)
    : m_type(motion.type),
      m_value(motion.value),
      m_direction(motion.direction),
      m_amplitude(motion.amplitude),
      m_omega(motion.angular_frequency),
      m_start(motion.start),
      m_phase(motion.phase) {
  if (m_type != io::Motion::Type::Table) return;
  m_times = motion.times;
  m_values = motion.values;
  for (double& value : m_values) value *= motion.scale;
  // an accelerogram becomes a velocity table by the trapezoidal rule, from v = 0
  if (motion.quantity == io::Motion::Quantity::Acceleration) {
    std::vector<double> velocity(m_values.size(), 0.0);
    for (std::size_t k = 1; k < m_values.size(); ++k)
      velocity[k] = velocity[k - 1] + 0.5 * (m_times[k] - m_times[k - 1]) * (m_values[k] + m_values[k - 1]);
    m_values = std::move(velocity);
  }
  m_table_is_displacement = motion.quantity == io::Motion::Quantity::Displacement;
  // cumulative integral of the piecewise-linear samples at each sample time
  m_cumulative.assign(m_values.size(), 0.0);
  for (std::size_t k = 1; k < m_values.size(); ++k)
    m_cumulative[k] = m_cumulative[k - 1] + 0.5 * (m_times[k] - m_times[k - 1]) * (m_values[k] + m_values[k - 1]);
}

double DrivenMotion::table_value(double t) const {
  if (t <= m_times.front()) return m_values.front();
  if (t >= m_times.back()) return m_values.back();
  const auto k = static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin());
  const double s = (t - m_times[k - 1]) / (m_times[k] - m_times[k - 1]);
  return (1 - s) * m_values[k - 1] + s * m_values[k];
}

double DrivenMotion::table_integral(double t) const {
  if (t <= m_times.front()) return m_values.front() * (t - m_times.front());
  if (t >= m_times.back()) return m_cumulative.back() + m_values.back() * (t - m_times.back());
  const auto k = static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin());
  return m_cumulative[k - 1] + 0.5 * (t - m_times[k - 1]) * (m_values[k - 1] + table_value(t));
}

Vec3 DrivenMotion::velocity(double t) const {
  switch (m_type) {
    case io::Motion::Type::Constant:
      return m_value;
    case io::Motion::Type::Sine:
      return t > m_start ? Vec3(m_amplitude * std::sin(m_omega * (t - m_start) + m_phase) * m_direction)
                         : Vec3::Zero();
    case io::Motion::Type::Table:
      break;
  }
  if (!m_table_is_displacement) return table_value(t) * m_direction;
  // slope of the piecewise-linear displacement (zero outside the samples)
  if (t < m_times.front() || t >= m_times.back()) return Vec3::Zero();
  const auto k = static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin());
  return (m_values[k] - m_values[k - 1]) / (m_times[k] - m_times[k - 1]) * m_direction;
}

Vec3 DrivenMotion::displacement(double t) const {
  switch (m_type) {
    case io::Motion::Type::Constant:
      return m_value * t;
    case io::Motion::Type::Sine:
      return t > m_start ? Vec3(m_amplitude / m_omega *
                                (std::cos(m_phase) - std::cos(m_omega * (t - m_start) + m_phase)) * m_direction)
                         : Vec3::Zero();
    case io::Motion::Type::Table:
      break;
  }
  if (m_table_is_displacement) return (table_value(t) - table_value(0.0)) * m_direction;
  return (table_integral(t) - table_integral(0.0)) * m_direction;
}

}  // namespace nscd
