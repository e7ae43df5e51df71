extension Array where Element: Hashable {
    /// The elements in order, keeping only the first of equal ones.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
