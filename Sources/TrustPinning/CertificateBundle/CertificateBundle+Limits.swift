extension CertificateBundle {
    /// How much a bundle reads, so that a directory of pins answers quickly whatever it holds: a
    /// device, a huge file or thousands of files named like certificates are listed in
    /// ``CertificateBundle/skipped``, never read whole.
    public struct Limits: Hashable, Sendable {
        /// The most files read (files beyond it, in name order, are skipped unread).
        public var maximumFileCount: Int
        /// The most bytes one file may hold.
        public var maximumFileSize: Int
        /// The most bytes read over all files (a file that would go beyond it is skipped).
        public var maximumTotalSize: Int

        /// Creates limits.
        public init(maximumFileCount: Int, maximumFileSize: Int, maximumTotalSize: Int) {
            self.maximumFileCount = maximumFileCount
            self.maximumFileSize = maximumFileSize
            self.maximumTotalSize = maximumTotalSize
        }

        /// 1,000 files, 1 MiB each (room for a PEM CA bundle), 16 MiB in all: real pin directories
        /// hold a few certificates of a few kilobytes.
        public static let standard = Limits(maximumFileCount: 1_000, maximumFileSize: 1 << 20, maximumTotalSize: 16 << 20)
    }
}
