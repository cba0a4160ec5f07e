#include "common/site/site_json.h"

#include "common/util/json_writer.h"

namespace vertex::site {
namespace {

void WritePageRef(const SitePage& page, util::JsonWriter* w) {
  w->BeginObject().Key("file").String(page.file).Key("url").String(page.url).EndObject();
}

void WriteCluster(const SiteClustering& site, const SiteCluster& c, util::JsonWriter* w) {
  w->BeginObject();
  w->Key("id").Uint(c.id);
  w->Key("signature").String(c.signature.ToText());
  w->Key("importance").Int(c.importance);
  w->Key("url_regex").String(c.url_regex);
  w->Key("pages").BeginArray();
  for (size_t p : c.pages) WritePageRef(site.pages[p], w);
  w->EndArray();
  w->Key("attached").BeginArray();
  for (size_t p : c.attached) WritePageRef(site.pages[p], w);
  w->EndArray();
  w->Key("annotation_sample").BeginArray();
  for (const AnnotationPick& pick : c.annotation_sample) w->String(site.pages[pick.page].file);
  w->EndArray();
  w->Key("annotation_weights").BeginArray();
  for (const AnnotationPick& pick : c.annotation_sample) w->Double(pick.added_weight);
  w->EndArray();
  w->EndObject();
}

}  // namespace

std::string ClusteringToJson(const SiteClustering& site) {
  util::JsonWriter w;
  w.BeginObject();
  w.Key("page_count").Uint(site.pages.size());
  w.Key("sample_size").Uint(site.sample_size);
  w.Key("prune_threshold").Int(site.prune_threshold);
  w.Key("clusters").BeginArray();
  for (const SiteCluster& c : site.clusters) WriteCluster(site, c, &w);
  w.EndArray();
  w.Key("unassigned").BeginArray();
  for (size_t p : site.unassigned) WritePageRef(site.pages[p], &w);
  w.EndArray();
  w.Key("errors").BeginArray();
  for (const PageError& e : site.errors) {
    w.BeginObject().Key("file").String(e.file).Key("error").String(e.error).EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Release();
}

}  // namespace vertex::site
