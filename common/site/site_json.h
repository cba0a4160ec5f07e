// The JSON form of a site clustering, as `vertexctl cluster` prints it:
//
// {"page_count":N,"sample_size":N,"prune_threshold":N,
//  "clusters":[{"id":0,"signature":"0a.*.…","importance":N,"url_regex":"…",
//               "pages":[{"file":"…","url":"…"}],
//               "annotation_sample":["file",…],"annotation_weights":[w,…]}],
//  "unassigned":[{"file":"…","url":"…"}],
//  "errors":[{"file":"…","error":"…"}]}
//
// Thread-safety: pure function.
#ifndef VERTEX_COMMON_SITE_SITE_JSON_H_
#define VERTEX_COMMON_SITE_SITE_JSON_H_

#include <string>

#include "common/site/site_clusterer.h"

namespace vertex::site {

std::string ClusteringToJson(const SiteClustering& clustering);

}  // namespace vertex::site

#endif  // VERTEX_COMMON_SITE_SITE_JSON_H_
