// URLs in page attributes: RFC 3986 reference resolution, the first URL of
// a srcset, which attributes hold URLs, and the value an attribute offers a
// rule (resolved against the page's base URL when it is a URL).
//
// Both annotation resolution (learn/annotation.cc) and extraction
// (SourceTexts in value.cc) go through AttributeSourceText, so that an
// annotated link and an extracted one are compared in the same form.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_RULE_URL_H_
#define VERTEX_COMMON_RULE_URL_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/html/page.h"

namespace vertex::rule {

// Resolves `reference` against `base` as RFC 3986 section 5.2 does (strict:
// a reference with a scheme is absolute), removing dot segments; the scheme
// is lower-cased. The reference is first trimmed of leading and trailing
// whitespace and control characters and stripped of tabs and line breaks, as
// browsers do with attribute URLs. Examples, with base
// "http://a.test/b/c/d?q":
//   "g"        -> "http://a.test/b/c/g"
//   "../g"     -> "http://a.test/b/g"
//   "?y"       -> "http://a.test/b/c/d?y"
//   "#f"       -> "http://a.test/b/c/d?q#f"
//   "//x.test" -> "http://x.test"
//   ""         -> "http://a.test/b/c/d?q" (the base itself)
// InvalidArgument (naming both) when `reference` is relative and `base` has
// no scheme: there is nothing to resolve against.
absl::StatusOr<std::string> ResolveUrl(std::string_view base, std::string_view reference);

// The URL of the first image candidate of a srcset attribute
// ("/a-1x.jpg 1x, /a-2x.jpg 2x" -> "/a-1x.jpg"), as the HTML standard's
// srcset parser reads it (commas ending a URL are not part of it). "" when
// the value holds no candidate.
std::string FirstSrcsetUrl(std::string_view srcset);

// The URL relative references of `page` resolve against: the href of the
// first <base> element that has one, resolved against the page's URL, else
// the page's URL.
std::string PageBaseUrl(const html::Page& page);

// Whether attribute `name` (lowercase) of `element` holds a URL: href, src,
// srcset, action, poster and cite, and the content of a <meta> whose
// property, name or itemprop ends in "url" or "image" (og:image,
// twitter:image, og:url, ...).
bool IsUrlAttribute(html::Node element, std::string_view name);

// The value attribute `name` of `element` offers a rule, whitespace
// normalised: a srcset gives its first candidate's URL, and a URL attribute
// (IsUrlAttribute) is resolved against `base_url` (PageBaseUrl); a
// reference that cannot be resolved (no absolute base) is kept as written.
// "" when the element has no such attribute or it is blank.
std::string AttributeSourceText(html::Node element, std::string_view name, std::string_view base_url);

// An annotated value (what an editor typed) in the form AttributeSourceText
// gives for a URL attribute: resolved against `base_url` when it is a URL
// reference, else whitespace-normalised as typed.
std::string NormalizeAnnotatedUrl(std::string_view value, std::string_view base_url);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_URL_H_
