import TrustX509

extension TLSTrustSettings {
    /// Whether the anchors are the caller's: a fixed list or a provider.
    var hasExplicitAnchors: Bool { anchors != nil || anchorProvider != nil }

    /// These settings for one handshake whose peer presented `leaf` first: the ``anchorProvider``
    /// read once, its answer fixed as ``anchors``, so every evaluation and fetch of the handshake
    /// uses the same set. Settings without a provider are returned as they are.
    func forHandshake(leaf: Certificate?) -> Result<TLSTrustSettings, TLSTrustFailure> {
        guard let provider = anchorProvider else { return .success(self) }
        guard let leaf else { return .failure(.noPeerCertificates) }
        do {
            var settings = self
            settings.anchors = try provider.anchors(forLeaf: leaf)
            settings.anchorProvider = nil
            return .success(settings)
        } catch {
            return .failure(.anchorsUnavailable(error))
        }
    }
}
