/// Bounds that keep hostile or broken input from costing unbounded time or memory. Each is
/// far above what a hand-written schema or migration needs.
package struct YAMLLimits: Sendable {
    /// The largest file read, in bytes.
    package var maxFileSize: Int
    /// The deepest nesting of mappings and lists.
    package var maxDepth: Int
    /// The most nodes that aliases (`*name`) may add to a document, counting every node
    /// under each alias: this defeats "billion laughs" documents.
    package var maxAliasExpansion: Int

    package init(maxFileSize: Int = 5_000_000, maxDepth: Int = 64, maxAliasExpansion: Int = 10_000) {
        self.maxFileSize = maxFileSize
        self.maxDepth = maxDepth
        self.maxAliasExpansion = maxAliasExpansion
    }

    package static let standard = YAMLLimits()
}
