// What a Scrapy/parsel user would run instead of Vertex, for the benchmarks'
// baseline: libxml2's HTML parser with lxml's default options (recover, no
// network, compact; errors off) on the page bytes, then five XPaths written
// by hand for the site's attributes, compiled once and evaluated per page,
// each giving the string value of its first node (parsel's `.get()`), or
// its string for a string-valued XPath.
//
// Thread-safety: a HandXPaths is immutable after Create; Parse and Run may
// be called from many threads (each call has its own document and context).
#ifndef VERTEX_BENCH_HAND_XPATHS_H_
#define VERTEX_BENCH_HAND_XPATHS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

struct _xmlXPathCompExpr;

namespace vertex::bench {

class HandXPaths {
 public:
  // The five XPaths for SWDE booksamillion (title, author, isbn_13,
  // publisher, publication_date), or for the demo site's product pages
  // (title, brand, price, sku, rating) when `demo`. InvalidArgument naming
  // an XPath libxml2 does not compile.
  static absl::StatusOr<HandXPaths> Create(bool demo);
  HandXPaths(HandXPaths&&) noexcept;
  ~HandXPaths();

  // htmlReadMemory of `bytes` alone (the document freed); false when
  // libxml2 gives no document.
  static bool Parse(std::string_view bytes);
  // Parse plus the five XPaths; the values, by XPath ("" when no node).
  std::vector<std::string> Run(std::string_view bytes) const;

  const std::vector<std::string>& names() const { return names_; }
  const std::vector<std::string>& expressions() const { return expressions_; }

 private:
  HandXPaths() = default;
  std::vector<std::string> names_;
  std::vector<std::string> expressions_;
  std::vector<_xmlXPathCompExpr*> compiled_;  // owned
};

}  // namespace vertex::bench

#endif  // VERTEX_BENCH_HAND_XPATHS_H_
