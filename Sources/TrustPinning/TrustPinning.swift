// TrustPinning module
