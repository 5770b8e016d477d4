// The head-ablation spec (base/translation/HeadAblation.h): KIND:LAYER:HEAD entries with `*`,
// counted from 1 as typed and from 0 inside; the errors name the flag and the bad entry.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "base/InputError.h"
#include "base/translation/HeadAblation.h"

using namespace attnlab;
using Catch::Matchers::Contains;

namespace {

std::string errorOf(const std::string& spec, int layers = 2, int heads = 4, const std::string& flag = "--ablate") {
    try {
        resolveHeads(parseHeadAblation(spec, flag), layers, heads, flag);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

std::vector<std::string> names(const std::vector<HeadId>& heads) {
    std::vector<std::string> out;
    for (const HeadId& h : heads) out.push_back(toString(h));
    return out;
}

}  // namespace

TEST_CASE("a spec selects heads counted from 1, wildcards expand, each head once, sorted", "[heads]") {
    const auto one = resolveHeads(parseHeadAblation("cross:1:2"), 2, 4);
    REQUIRE(one.size() == 1);
    CHECK(one[0].kind == MapKind::Cross);
    CHECK(one[0].layer == 0);
    CHECK(one[0].head == 1);
    CHECK(toString(one[0]) == "cross:1:2");

    CHECK(resolveHeads(parseHeadAblation("cross:*:*"), 2, 4).size() == 8);
    CHECK(resolveHeads(parseHeadAblation("*:*:*"), 2, 4).size() == 24);
    CHECK(names(resolveHeads(parseHeadAblation("*:2:3"), 2, 4)) ==
          std::vector<std::string>{"encoder:2:3", "decoder:2:3", "cross:2:3"});
    // Duplicates and overlaps collapse; the order is encoder, decoder, cross, then layer and head.
    CHECK(names(resolveHeads(parseHeadAblation(" cross:2:1 , encoder:1:*,cross:2:1,encoder:1:2"), 2, 2)) ==
          std::vector<std::string>{"encoder:1:1", "encoder:1:2", "cross:2:1"});
    CHECK(allHeads(2, 4).size() == 24);
    CHECK(allHeads(2, 4).front() == HeadId{MapKind::Encoder, 0, 0});
    CHECK(allHeads(2, 4).back() == HeadId{MapKind::Cross, 1, 3});
}

TEST_CASE("a bad spec is a ConfigError naming the flag and the entry", "[heads]") {
    CHECK_THAT(errorOf("cross:0:1"), Contains("--ablate") && Contains("'cross:0:1'") && Contains("count from 1"));
    CHECK_THAT(errorOf("cross:1"), Contains("--ablate") && Contains("'cross:1'") && Contains("KIND:LAYER:HEAD"));
    CHECK_THAT(errorOf("self:1:1"), Contains("'self:1:1'") && Contains("encoder, decoder, cross or *"));
    CHECK_THAT(errorOf("cross:a:1"), Contains("'cross:a:1'") && Contains("LAYER"));
    CHECK_THAT(errorOf("cross:1:-1"), Contains("'cross:1:-1'") && Contains("HEAD"));
    CHECK_THAT(errorOf("cross:1:1,,encoder:1:1"), Contains("--ablate") && Contains("empty entry"));
    CHECK_THAT(errorOf(""), Contains("--ablate needs at least one"));
    CHECK_THAT(errorOf("cross:3:1"), Contains("--ablate") && Contains("layer 3 in 'cross:3:1'") &&
                                         Contains("2 layers"));
    CHECK_THAT(errorOf("encoder:1:5"), Contains("head 5 in 'encoder:1:5'") && Contains("4 heads"));
    CHECK_THAT(errorOf("cross:1:9", 2, 4, "--heads-off"), Contains("--heads-off"));
    CHECK(errorOf("decoder:2:4").empty());
}
