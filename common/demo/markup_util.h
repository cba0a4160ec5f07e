// Markup helpers for the demo site generators: escaping, URL slugs and an
// indenting HTML builder. Used by variant_site.cc; site_generator.cc and
// versioned_site.cc still carry private copies of the same helpers (moving
// them here is a separate change with no effect on their pages).
//
// Thread-safety: the functions are pure; an Html builder is not thread-safe.
#ifndef VERTEX_COMMON_DEMO_MARKUP_UTIL_H_
#define VERTEX_COMMON_DEMO_MARKUP_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace vertex::demo::internal {

// Escapes &, < and > (and " in an attribute value); keeps other UTF-8.
inline std::string Esc(absl::string_view s, bool attribute = false) {
  std::string out;
  for (char c : s) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"' && attribute) {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

// Lower-case ASCII slug: letters and digits kept, runs of anything else
// (including non-ASCII bytes) become one '-'; no '-' at either end.
inline std::string Slugify(absl::string_view s) {
  std::string out;
  for (char c : s) {
    char piece = 0;
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) piece = c;
    if (c >= 'A' && c <= 'Z') piece = static_cast<char>(c - 'A' + 'a');
    if (piece != 0) {
      out += piece;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// <a href="HREF" ATTRS>INNER</a>; `inner` is markup.
inline std::string Link(absl::string_view href, absl::string_view inner,
                        absl::string_view attrs = {}) {
  return absl::StrCat("<a href=\"", Esc(href, true), "\"", attrs.empty() ? "" : " ", attrs, ">",
                      inner, "</a>");
}

// Indented markup, one element per line unless written inline.
class Html {
 public:
  // <tag attrs> on a new line; what follows is indented until Close().
  Html& Open(absl::string_view tag, absl::string_view attrs = {}) {
    Line();
    Start(tag, attrs);
    open_.emplace_back(tag);
    return *this;
  }
  // Closes the innermost open element.
  Html& Close() {
    const std::string tag = std::move(open_.back());
    open_.pop_back();
    Line();
    absl::StrAppend(&out_, "</", tag, ">");
    return *this;
  }
  // <tag attrs>inner</tag> on one line; `inner` is markup.
  Html& Elem(absl::string_view tag, absl::string_view attrs, absl::string_view inner) {
    Line();
    Start(tag, attrs);
    absl::StrAppend(&out_, inner, "</", tag, ">");
    return *this;
  }
  // A void element <tag attrs>.
  Html& Void(absl::string_view tag, absl::string_view attrs) {
    Line();
    Start(tag, attrs);
    return *this;
  }
  // Markup on its own line.
  Html& Raw(absl::string_view markup) {
    Line();
    out_.append(markup.data(), markup.size());
    return *this;
  }
  size_t depth() const { return open_.size(); }
  // The markup so far; open elements are closed first.
  std::string Take() {
    while (!open_.empty()) Close();
    return std::move(out_);
  }

 private:
  void Line() {
    if (!out_.empty()) out_ += '\n';
    out_.append(open_.size() * 2, ' ');
  }
  void Start(absl::string_view tag, absl::string_view attrs) {
    absl::StrAppend(&out_, "<", tag, attrs.empty() ? "" : " ", attrs, ">");
  }

  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace vertex::demo::internal

#endif  // VERTEX_COMMON_DEMO_MARKUP_UTIL_H_
