#include "common/site/site_builder.h"

#include "absl/strings/str_cat.h"

namespace vertex::site {

v1::PageBuilder BuilderToProto(html::PageBuilder builder) {
  return builder == html::PageBuilder::kLibxml2 ? v1::PAGE_BUILDER_LIBXML2 : v1::PAGE_BUILDER_GUMBO;
}

std::optional<html::PageBuilder> BuilderFromProto(v1::PageBuilder builder) {
  switch (builder) {
    case v1::PAGE_BUILDER_GUMBO:
      return html::PageBuilder::kGumbo;
    case v1::PAGE_BUILDER_LIBXML2:
      return html::PageBuilder::kLibxml2;
    default:
      return std::nullopt;
  }
}

html::PageBuilder BuilderOfSite(const v1::SiteRecord& site) {
  return BuilderFromProto(site.settings().page_builder()).value_or(html::PageBuilder::kGumbo);
}

html::ParseOptions SiteParseOptions(html::ParseOptions engine, const v1::SiteRecord& site) {
  engine.builder = BuilderOfSite(site);
  return engine;
}

absl::StatusOr<html::PageBuilder> ResolveSiteBuilder(const std::string& site, const v1::SiteRecord* stored,
                                                     bool has_content, v1::PageBuilder requested,
                                                     html::PageBuilder server_default) {
  const std::optional<html::PageBuilder> asked = BuilderFromProto(requested);
  if (stored == nullptr) return asked.value_or(server_default);
  const html::PageBuilder current = BuilderOfSite(*stored);
  if (!asked.has_value() || *asked == current) return current;
  if (!has_content) return *asked;
  const std::string from(html::PageBuilderName(current));
  const std::string to(html::PageBuilderName(*asked));
  return absl::FailedPreconditionError(absl::StrCat(
      "site \"", site, "\" is built with page builder ", from, " and already has sample pages or rules learnt with ",
      "it; the request asks for ", to, ": rules and signatures are applied with the builder they were learnt with, ",
      "so delete the site and register it again with ", to, ", or register the pages under another site id"));
}

}  // namespace vertex::site
