#include "common/rule/url.h"

#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/html/text.h"

namespace vertex::rule {
namespace {

// The five components of a URI reference (RFC 3986 section 3); a component
// that is absent differs from one that is empty ("?" gives an empty query).
struct UriParts {
  std::optional<std::string_view> scheme;
  std::optional<std::string_view> authority;
  std::string_view path;
  std::optional<std::string_view> query;
  std::optional<std::string_view> fragment;
};

bool IsSchemeChar(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'; }

// Splits `s` as the regular expression of RFC 3986 appendix B does.
UriParts Split(std::string_view s) {
  UriParts p;
  if (const size_t hash = s.find('#'); hash != std::string_view::npos) {
    p.fragment = s.substr(hash + 1);
    s = s.substr(0, hash);
  }
  if (const size_t q = s.find('?'); q != std::string_view::npos) {
    p.query = s.substr(q + 1);
    s = s.substr(0, q);
  }
  const size_t colon = s.find(':');
  if (colon != std::string_view::npos && colon > 0 && absl::ascii_isalpha(static_cast<unsigned char>(s[0])) &&
      s.substr(0, colon).find('/') == std::string_view::npos) {
    bool valid = true;
    for (char c : s.substr(0, colon)) valid = valid && IsSchemeChar(c);
    if (valid) {
      p.scheme = s.substr(0, colon);
      s = s.substr(colon + 1);
    }
  }
  if (s.starts_with("//")) {
    s = s.substr(2);
    const size_t slash = s.find('/');
    p.authority = s.substr(0, slash);
    s = slash == std::string_view::npos ? std::string_view() : s.substr(slash);
  }
  p.path = s;
  return p;
}

// Drops the last segment of `out` and its "/" (RFC 3986 5.2.4, step C).
void PopSegment(std::string* out) {
  const size_t slash = out->rfind('/');
  out->erase(slash == std::string::npos ? 0 : slash);
}

// RFC 3986 section 5.2.4, in one pass over `in` (linear: a data: URL may be
// megabytes of base64 with a "/" every few bytes).
std::string RemoveDotSegments(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  while (!in.empty()) {
    if (in.starts_with("../")) {
      in.remove_prefix(3);
    } else if (in.starts_with("./")) {
      in.remove_prefix(2);
    } else if (in.starts_with("/./")) {
      in.remove_prefix(2);
    } else if (in == "/.") {
      in = "/";
    } else if (in.starts_with("/../")) {
      in.remove_prefix(3);
      PopSegment(&out);
    } else if (in == "/..") {
      in = "/";
      PopSegment(&out);
    } else if (in == "." || in == "..") {
      in = {};
    } else {
      const size_t next = in.find('/', 1);
      const size_t len = next == std::string_view::npos ? in.size() : next;
      out.append(in.substr(0, len));
      in.remove_prefix(len);
    }
  }
  return out;
}

// RFC 3986 section 5.2.3.
std::string Merge(const UriParts& base, std::string_view path) {
  if (base.authority && base.path.empty()) return "/" + std::string(path);
  const size_t slash = base.path.rfind('/');
  if (slash == std::string_view::npos) return std::string(path);
  return std::string(base.path.substr(0, slash + 1)) + std::string(path);
}

std::string Recompose(std::string_view scheme, std::optional<std::string_view> authority, std::string_view path,
                      std::optional<std::string_view> query, std::optional<std::string_view> fragment) {
  std::string out(scheme);
  absl::AsciiStrToLower(&out);
  out += ':';
  if (authority) out.append("//").append(*authority);
  out.append(path);
  if (query) out.append("?").append(*query);
  if (fragment) out.append("#").append(*fragment);
  return out;
}

// Trimmed of C0 controls and spaces at both ends, tabs and line breaks
// removed (the URL standard's preprocessing).
std::string CleanReference(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.remove_suffix(1);
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '\t' && c != '\n' && c != '\r') out += c;
  }
  return out;
}

bool EndsWithUrlWord(std::string_view s) {
  std::string lower(s);
  absl::AsciiStrToLower(&lower);
  return lower.ends_with("url") || lower.ends_with("image");
}

}  // namespace

absl::StatusOr<std::string> ResolveUrl(std::string_view base, std::string_view reference) {
  const std::string ref_text = CleanReference(reference);
  const UriParts r = Split(ref_text);
  if (r.scheme) return Recompose(*r.scheme, r.authority, RemoveDotSegments(r.path), r.query, r.fragment);
  const std::string base_text = CleanReference(base);
  const UriParts b = Split(base_text);
  if (!b.scheme) {
    return absl::InvalidArgumentError(absl::StrCat("cannot resolve \"", ref_text, "\" against \"", base_text,
                                                   "\", which is not an absolute URL"));
  }
  if (r.authority) return Recompose(*b.scheme, r.authority, RemoveDotSegments(r.path), r.query, r.fragment);
  if (r.path.empty()) return Recompose(*b.scheme, b.authority, b.path, r.query ? r.query : b.query, r.fragment);
  const std::string path = r.path.front() == '/' ? RemoveDotSegments(r.path) : RemoveDotSegments(Merge(b, r.path));
  return Recompose(*b.scheme, b.authority, path, r.query, r.fragment);
}

std::string FirstSrcsetUrl(std::string_view srcset) {
  // Candidates are separated by commas; a URL runs to the next whitespace,
  // and commas ending it separate it from the next candidate.
  size_t i = 0;
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  while (i < srcset.size() && (space(srcset[i]) || srcset[i] == ',')) ++i;
  size_t end = i;
  while (end < srcset.size() && !space(srcset[end])) ++end;
  std::string_view url = srcset.substr(i, end - i);
  while (!url.empty() && url.back() == ',') url.remove_suffix(1);
  return std::string(url);
}

std::string PageBaseUrl(const html::Page& page) {
  const html::Node root = page.root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (n.tag() != "base" || !n.has_attribute("href")) continue;
    absl::StatusOr<std::string> resolved = ResolveUrl(page.url(), n.attribute_view("href"));
    return resolved.ok() ? *std::move(resolved) : page.url();
  }
  return page.url();
}

bool IsUrlAttribute(html::Node element, std::string_view name) {
  if (!element.is_element()) return false;
  if (name == "href" || name == "src" || name == "srcset" || name == "action" || name == "poster" || name == "cite") {
    return true;
  }
  if (name != "content" || element.tag() != "meta") return false;
  for (std::string_view key : {"property", "name", "itemprop"}) {
    if (EndsWithUrlWord(element.attribute_view(key))) return true;
  }
  return false;
}

std::string AttributeSourceText(html::Node element, std::string_view name, std::string_view base_url) {
  if (!element.is_element() || !element.has_attribute(name)) return "";
  std::string value(element.attribute_view(name));
  if (name == "srcset") value = FirstSrcsetUrl(value);
  if (IsUrlAttribute(element, name) && !html::IsBlank(value)) {
    absl::StatusOr<std::string> resolved = ResolveUrl(base_url, value);
    if (resolved.ok()) value = *std::move(resolved);
  }
  return html::NormalizeSpace(value);
}

std::string NormalizeAnnotatedUrl(std::string_view value, std::string_view base_url) {
  absl::StatusOr<std::string> resolved = ResolveUrl(base_url, value);
  return html::NormalizeSpace(resolved.ok() ? *resolved : value);
}

}  // namespace vertex::rule
