// One noise at 2048², one thread: ns per sample, fastest and median of N reps.
#include <FastNoise/FastNoise.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
    const char* level = argv[1];
    const char* kind = argv[2];
    int reps = argc > 3 ? atoi(argv[3]) : 15;
    FastSIMD::FeatureSet fs = !strcmp(level, "avx512") ? FastSIMD::FeatureSet::AVX512
        : !strcmp(level, "avx2") ? FastSIMD::FeatureSet::AVX2 : FastSIMD::FeatureSet::SSE2;
    const int N = 2048;
    FastNoise::SmartNode<> gen;
    if (!strcmp(kind, "simplex")) {
        auto s = FastNoise::New<FastNoise::Simplex>(fs); s->SetScale(N / 8.0f); gen = s;
    } else {
        auto c = FastNoise::New<FastNoise::CellularDistance>(fs);
        c->SetScale(N / (float)atoi(kind + 8)); c->SetGridJitter(1.0f); gen = c;
    }
    std::vector<float> out(N * N);
    std::vector<double> t;
    for (int r = 0; r < reps; r++) {
        auto a = std::chrono::steady_clock::now();
        gen->GenUniformGrid2D(out.data(), 0.5f, 0.5f, N, N, 1.0f, 1.0f, 1337);
        auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double, std::nano>(b - a).count() / (N * N));
    }
    std::sort(t.begin(), t.end());
    printf("%s %s: %.2f (%.2f) ns/sample  [simd %u]\n", level, kind, t[0], t[t.size() / 2], (unsigned)gen->GetActiveFeatureSet());
}
