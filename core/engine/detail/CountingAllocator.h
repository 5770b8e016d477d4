#pragma once
// Engine-internal (LibTorch): peak memory as the CPU allocator sees it, for the measured
// experiments (the complexity experiment, the long-range experiment).
//
// For the duration of a CountingScope every CPU tensor allocation goes through a counter (the
// live bytes and their peak), so a figure is the peak of the bytes the tensors held at once:
// whatever the operations really allocate, temporaries and gathered copies too, nothing
// estimated by hand. The counter is process-wide (c10's CPU allocator is), so other threads'
// tensors allocated during a scope count too.
//
// A scope may set a limit: an allocation on the scope's own thread that would take the live
// bytes beyond it throws c10::Error (what LibTorch throws when malloc fails) before anything is
// allocated, so a run that outgrows its memory budget ends with an exception the caller catches
// rather than with the system's out-of-memory killer. Other threads (another session in the GUI,
// intra-op workers) are counted, never refused.
#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>

#include <atomic>
#include <cstddef>
#include <thread>

namespace attnlab::detail {

class CountingAllocator final : public c10::Allocator {
public:
    explicit CountingAllocator(c10::Allocator* base) : base_(base) {}
    c10::DataPtr allocate(std::size_t n) const override {
        const std::size_t limit = limit_.load();
        if (limit > 0 && live_.load() + n > limit && std::this_thread::get_id() == owner_.load()) {
            refused_.store(true);
            TORCH_CHECK(false, "memory budget of ", limit, " bytes exceeded (", live_.load(), " held, ", n,
                        " more asked for)");
        }
        auto* held = new Held{base_->allocate(n), n, this};
        const std::size_t now = live_.fetch_add(n) + n;
        for (std::size_t peak = peak_.load(); now > peak && !peak_.compare_exchange_weak(peak, now);) {
        }
        return {held->inner.get(), held, &release, held->inner.device()};
    }
    void resetPeak() { peak_.store(live_.load()); }
    std::size_t live() const { return live_.load(); }
    std::size_t peak() const { return peak_.load(); }
    // limit 0 = none. The owner is the thread whose allocations the limit refuses.
    void setLimit(std::size_t limit, std::thread::id owner) {
        owner_.store(owner);
        limit_.store(limit);
        refused_.store(false);
    }
    bool refused() const { return refused_.load(); }

private:
    struct Held {
        c10::DataPtr inner;
        std::size_t bytes;
        const CountingAllocator* owner;
    };
    static void release(void* context) {
        auto* held = static_cast<Held*>(context);
        held->owner->live_.fetch_sub(held->bytes);
        delete held;  // frees the block through the base allocator's deleter
    }
    c10::Allocator* base_;
    mutable std::atomic<std::size_t> live_{0}, peak_{0};
    std::atomic<std::size_t> limit_{0};
    std::atomic<std::thread::id> owner_{};
    mutable std::atomic<bool> refused_{false};
};

// Installs the counter for a scope. It outlives every tensor it allocated (never destroyed), so a
// tensor freed after the scope still finds it. limitBytes (0 = none) is the most the live bytes
// may grow by beyond what they were when the scope began, for this thread's allocations.
class CountingScope {
public:
    explicit CountingScope(std::size_t limitBytes = 0) {
        static CountingAllocator* counter = new CountingAllocator(c10::GetCPUAllocator());
        counter_ = counter;
        previous_ = c10::GetCPUAllocator();
        c10::SetCPUAllocator(counter_, kPriority);
        if (limitBytes > 0) counter_->setLimit(counter_->live() + limitBytes, std::this_thread::get_id());
    }
    ~CountingScope() {
        counter_->setLimit(0, std::thread::id());
        c10::SetCPUAllocator(previous_, kPriority);
    }
    CountingScope(const CountingScope&) = delete;
    CountingScope& operator=(const CountingScope&) = delete;
    // Bytes held at the peak of fn() beyond what was held before it.
    template <typename Fn>
    double peakBytesOf(Fn&& fn) {
        const std::size_t before = counter_->live();
        counter_->resetPeak();
        fn();
        return static_cast<double>(counter_->peak() - before);
    }
    // Whether the limit refused an allocation since the scope began.
    bool refused() const { return counter_->refused(); }

private:
    static constexpr uint8_t kPriority = 100;  // above the default CPU allocator's
    CountingAllocator* counter_;
    c10::Allocator* previous_;
};

}  // namespace attnlab::detail
