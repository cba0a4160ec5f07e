// Reading a parsed feed document into the data model of feed.h (internal
// to the feed parser: feed.cc parses, this reads): the root decides the
// format, then the channel or feed and its items are read, with titles as
// plain text, descriptions and contents as HTML, links resolved against
// xml:base and the feed's URL, dates parsed (ParseFeedDate).
//
// Thread-safety: pure functions over a document the caller owns.
#ifndef VERTEX_COMMON_FEED_FEED_XML_H_
#define VERTEX_COMMON_FEED_FEED_XML_H_

#include <libxml/tree.h>

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/feed/feed.h"

namespace vertex::feed {

struct DocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using DocPtr = std::unique_ptr<xmlDoc, DocDeleter>;

// The feed `doc` holds. InvalidArgument "not a feed: root element <x>" when
// the root is none of <rss>, <rdf:RDF> (with an RSS 1.0 or 0.90 channel) or
// Atom's <feed>, or when <rss> has no <channel>.
absl::StatusOr<Feed> ReadFeedDocument(const xmlDoc& doc, const FeedParseOptions& options);

// Markup-bearing text as plain text: tags removed ('<' then a letter, '/',
// '!' or '?', up to the next '>'), HTML character references decoded,
// whitespace runs collapsed to one space, trimmed.
std::string HtmlToPlainText(std::string_view html);

// The name in an RSS <author> ("joe@example.com (Joe Smith)" -> "Joe Smith");
// other text whitespace-normalised as it is.
std::string RssAuthorName(std::string_view text);

}  // namespace vertex::feed

#endif  // VERTEX_COMMON_FEED_FEED_XML_H_
