#include "solvers/contact_coloring.hpp"

#include <algorithm>

namespace nscd::solvers {
namespace {

// eqs. (1)–(2) on the graph of nc contacts whose neighbours for_each_neighbour(i, f) lists, calling
// f(j) for every neighbour j of i (i itself and repeats allowed)
template <class Neighbours>
ContactColoring color_graph(int nc, Neighbours&& for_each_neighbour) {
  ContactColoring coloring;
  coloring.color.assign(nc, -1);
  coloring.order.resize(nc);
  coloring.color_start.assign(1, 0);
  if (nc == 0) return coloring;

  // eq. (1): first fit in index order; stamp[c] == i marks colour c as taken by a neighbour of i
  std::vector<int> stamp;
  std::vector<int> count;
  auto mark_neighbour_colors = [&](int i) {
    for_each_neighbour(i, [&](int j) {
      if (j != i && coloring.color[j] >= 0) stamp[coloring.color[j]] = i;
    });
  };
  for (int i = 0; i < nc; ++i) {
    mark_neighbour_colors(i);
    int c = 0;
    while (c < static_cast<int>(stamp.size()) && stamp[c] == i) ++c;
    if (c == static_cast<int>(stamp.size())) {
      stamp.push_back(-1);
      count.push_back(0);
    }
    coloring.color[i] = c;
    ++count[c];
  }

  // eq. (2): move each contact to the least populated free colour when that evens the counts
  const int n_colors = static_cast<int>(count.size());
  std::fill(stamp.begin(), stamp.end(), -1);
  for (int i = 0; i < nc; ++i) {
    mark_neighbour_colors(i);
    const int own = coloring.color[i];
    int best = own;
    for (int c = 0; c < n_colors; ++c) {
      if (stamp[c] != i && count[c] < count[best]) best = c;
    }
    if (count[best] + 1 < count[own]) {
      --count[own];
      ++count[best];
      coloring.color[i] = best;
    }
  }

  // contacts grouped by colour, increasing index within a colour (counting sort)
  coloring.color_start.assign(n_colors + 1, 0);
  for (int c = 0; c < n_colors; ++c) coloring.color_start[c + 1] = coloring.color_start[c] + count[c];
  std::vector<int> fill(coloring.color_start.begin(), coloring.color_start.end() - 1);
  for (int i = 0; i < nc; ++i) coloring.order[fill[coloring.color[i]]++] = i;
  return coloring;
}

// the contacts of each body (CSR, in contact order): contacts of body k are list[start[k] .. start[k + 1])
struct BodyContacts {
  std::vector<int> start, list;
};

BodyContacts contacts_by_body(const ContactBodies& b) {
  BodyContacts by_body;
  by_body.start.assign(b.n_bodies + 1, 0);
  for (const ContactSides& c : b.contacts)
    for (const int body : c.body)
      if (body >= 0) ++by_body.start[body + 1];
  for (int k = 0; k < b.n_bodies; ++k) by_body.start[k + 1] += by_body.start[k];
  by_body.list.resize(by_body.start[b.n_bodies]);
  std::vector<int> fill(by_body.start.begin(), by_body.start.end() - 1);
  for (int i = 0; i < b.nc(); ++i)
    for (const int body : b.contacts[i].body)
      if (body >= 0) by_body.list[fill[body]++] = i;
  return by_body;
}

}  // namespace

ContactColoring color_contacts(const DelassusMatrix& W) {
  const int nc = W.nc();
  // transposed pattern: the rows j that store a block W_ji, so that a pattern that is not
  // symmetric (a dense FCLIB W with exact zero blocks) still gives symmetric conflicts
  std::vector<int> t_start(nc + 1, 0);
  for (int i = 0; i < nc; ++i) {
    for (const int* j = W.row_cols_begin(i); j != W.row_cols_end(i); ++j) ++t_start[*j + 1];
  }
  for (int i = 0; i < nc; ++i) t_start[i + 1] += t_start[i];
  std::vector<int> t_rows(t_start[nc]);
  std::vector<int> t_fill(t_start.begin(), t_start.end() - 1);
  for (int i = 0; i < nc; ++i) {
    for (const int* j = W.row_cols_begin(i); j != W.row_cols_end(i); ++j) t_rows[t_fill[*j]++] = i;
  }
  return color_graph(nc, [&](int i, auto&& f) {
    for (const int* j = W.row_cols_begin(i); j != W.row_cols_end(i); ++j) f(*j);
    for (int k = t_start[i]; k < t_start[i + 1]; ++k) f(t_rows[k]);
  });
}

ContactColoring color_contacts(const ContactBodies& b) {
  const BodyContacts by_body = contacts_by_body(b);
  return color_graph(b.nc(), [&](int i, auto&& f) {
    for (const int body : b.contacts[i].body)
      if (body >= 0)
        for (int k = by_body.start[body]; k < by_body.start[body + 1]; ++k) f(by_body.list[k]);
  });
}

}  // namespace nscd::solvers
