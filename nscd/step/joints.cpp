#include "nscd/step/joints.hpp"

#include <algorithm>
#include <cmath>

namespace nscd {
namespace {

// the contacts of one pair, from index `first` to `last` (exclusive), split by normal: each
// contact joins the first joint of the pair whose first normal is within kJointNormalAngle
void group_pair(const ActiveContacts& contacts, int first, int last, std::vector<Joint>& joints) {
  const std::size_t begin = joints.size();
  const double cos_limit = std::cos(kJointNormalAngle);
  for (int i = first; i < last; ++i) {
    const contact::ContactPoint& c = contacts[i].point;
    const Vec3 n = c.R_WC.col(0);
    auto joint = std::find_if(joints.begin() + begin, joints.end(), [&](const Joint& j) {
      return contacts[j.contacts.front()].point.R_WC.col(0).dot(n) >= cos_limit;
    });
    if (joint == joints.end()) {
      joints.push_back(Joint{c.a, c.b, {}, Vec3::Zero(), {}, 0.0, Vec3::Zero(), {}});
      joint = joints.end() - 1;
    }
    joint->contacts.push_back(i);
  }
}

double cross2(const Eigen::Vector2d& o, const Eigen::Vector2d& p, const Eigen::Vector2d& q) {
  return (p - o).x() * (q - o).y() - (p - o).y() * (q - o).x();
}

// Andrew's monotone chain: indices of the convex hull of `xy`, counter-clockwise, without
// collinear points (cross product within `eps` of 0); fewer than 3 when the points are collinear
std::vector<int> convex_hull(const std::vector<Eigen::Vector2d>& xy, double eps) {
  std::vector<int> order(xy.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    return xy[i].x() < xy[j].x() || (xy[i].x() == xy[j].x() && xy[i].y() < xy[j].y());
  });
  if (order.size() < 3) return order;
  std::vector<int> hull(2 * order.size());
  std::size_t k = 0;
  const auto add = [&](int i, std::size_t floor) {
    while (k >= floor && cross2(xy[hull[k - 2]], xy[hull[k - 1]], xy[i]) <= eps) --k;
    hull[k++] = i;
  };
  for (int i : order) add(i, 2);  // the lower chain, left to right
  const std::size_t upper = k + 1;
  for (std::size_t q = order.size() - 1; q-- > 0;) add(order[q], upper);  // the upper chain, back
  --k;  // the first point closes the upper chain
  hull.resize(k);
  return hull;
}

// eqs. (1)–(2) for a joint whose contacts are set
void joint_geometry(const ActiveContacts& contacts, Joint& joint) {
  const int n_points = static_cast<int>(joint.contacts.size());
  Vec3 normal = Vec3::Zero(), mean = Vec3::Zero();
  for (int i : joint.contacts) {
    normal += contacts[i].point.R_WC.col(0);
    mean += contacts[i].point.p_W;
  }
  joint.normal = normal.normalized();
  mean /= n_points;
  const Mat3& frame = contacts[joint.contacts.front()].point.R_WC;
  const Vec3 t1 = (frame.col(1) - frame.col(1).dot(joint.normal) * joint.normal).normalized();
  const Vec3 t2 = joint.normal.cross(t1);
  std::vector<Eigen::Vector2d> xy(n_points);
  double extent = 0;
  for (int k = 0; k < n_points; ++k) {
    const Vec3 d = contacts[joint.contacts[k]].point.p_W - mean;
    xy[k] = {d.dot(t1), d.dot(t2)};
    extent = std::max(extent, xy[k].norm());
  }
  const std::vector<int> hull = convex_hull(xy, 1e-12 * extent * extent);
  joint.tributary_area.assign(n_points, 0.0);
  joint.centroid = mean;
  joint.polygon.clear();
  for (int k : hull) joint.polygon.push_back(mean + xy[k].x() * t1 + xy[k].y() * t2);
  if (hull.size() < 3) return;
  Eigen::Vector2d c = Eigen::Vector2d::Zero();
  double area = 0;
  for (std::size_t k = 0; k < hull.size(); ++k) {
    const Eigen::Vector2d& p = xy[hull[k]];
    const Eigen::Vector2d& q = xy[hull[(k + 1) % hull.size()]];
    const double w = p.x() * q.y() - q.x() * p.y();
    area += w / 2;
    c += w * (p + q) / 6;
  }
  c /= area;
  joint.area = area;
  joint.centroid = mean + c.x() * t1 + c.y() * t2;
  for (std::size_t k = 0; k < hull.size(); ++k) {
    const Eigen::Vector2d& p = xy[hull[k]];
    const Eigen::Vector2d next = (p + xy[hull[(k + 1) % hull.size()]]) / 2;
    const Eigen::Vector2d prev = (p + xy[hull[(k + hull.size() - 1) % hull.size()]]) / 2;
    // the quadrilateral (p, next, c, prev), counter-clockwise
    joint.tributary_area[hull[k]] = (cross2(p, next, c) + cross2(p, c, prev)) / 2;
  }
}

}  // namespace

std::vector<Joint> find_joints(const ActiveContacts& contacts) {
  std::vector<Joint> joints;
  for (int first = 0; first < contacts.size();) {
    int last = first + 1;
    while (last < contacts.size() && contacts[last].point.a == contacts[first].point.a &&
           contacts[last].point.b == contacts[first].point.b)
      ++last;
    group_pair(contacts, first, last, joints);
    first = last;
  }
  for (Joint& joint : joints) joint_geometry(contacts, joint);
  return joints;
}

}  // namespace nscd
