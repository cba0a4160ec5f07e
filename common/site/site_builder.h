// A site's page builder (SiteSettings.page_builder, html::PageBuilder):
// the parser every path that parses the site's pages must use, since rules
// and shingle signatures learnt with one builder are applied with the same.
// A stored site whose settings say UNSPECIFIED predates the field and was
// built with Gumbo.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_SITE_SITE_BUILDER_H_
#define VERTEX_COMMON_SITE_SITE_BUILDER_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "common/html/page.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::site {

// The proto value of `builder` (never UNSPECIFIED).
v1::PageBuilder BuilderToProto(html::PageBuilder builder);
// The builder `builder` names; nullopt for UNSPECIFIED (and unknown values).
std::optional<html::PageBuilder> BuilderFromProto(v1::PageBuilder builder);

// The builder of stored site `site`: its settings' page_builder, Gumbo when
// UNSPECIFIED (a site stored before the field).
html::PageBuilder BuilderOfSite(const v1::SiteRecord& site);

// `engine` (the server's limits) with the builder of `site`: what every
// parse of the site's pages uses.
html::ParseOptions SiteParseOptions(html::ParseOptions engine, const v1::SiteRecord& site);

// The builder a site gets when a request (RegisterSite or AddSamplePages)
// with `requested` (UNSPECIFIED: none) meets `stored` (null: a new site):
// the stored one if any, else the requested one, else `server_default`.
// FailedPrecondition naming the site, both builders and what to do when the
// request names another builder than a stored site that `has_content`
// (sample pages or rules) already has; a site without content may change.
absl::StatusOr<html::PageBuilder> ResolveSiteBuilder(const std::string& site, const v1::SiteRecord* stored,
                                                     bool has_content, v1::PageBuilder requested,
                                                     html::PageBuilder server_default);

}  // namespace vertex::site

#endif  // VERTEX_COMMON_SITE_SITE_BUILDER_H_
