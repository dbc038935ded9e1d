// One FastNoise2 noise at 2048², one thread: ns per sample, fastest and median of N reps.
// Usage: bench LEVEL NOISE [REPS], LEVEL avx512, avx2 or sse2; NOISE perlin, fbm, value,
// simplex, perlin3d, simplex3d, cellularN or cellularN_3d (N cells across). The others
// have 8 cells across; the 3D ones are sampled half a cell into z.
#include <FastNoise/FastNoise.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s avx512|avx2|sse2 NOISE [reps]\n", argv[0]);
        return 2;
    }
    const char* level = argv[1];
    const char* kind = argv[2];
    int reps = argc > 3 ? atoi(argv[3]) : 15;
    FastSIMD::FeatureSet fs = !strcmp(level, "avx512") ? FastSIMD::FeatureSet::AVX512
        : !strcmp(level, "avx2") ? FastSIMD::FeatureSet::AVX2 : FastSIMD::FeatureSet::SSE2;
    const int N = 2048;
    const float scale = N / 8.0f;
    float zscale = scale;  // a lattice cell in z, in samples
    FastNoise::SmartNode<> gen;
    bool volume = strstr(kind, "3d") != nullptr;
    if (!strcmp(kind, "simplex") || !strcmp(kind, "simplex3d")) {
        auto s = FastNoise::New<FastNoise::Simplex>(fs); s->SetScale(scale); gen = s;
    } else if (!strcmp(kind, "value")) {
        auto s = FastNoise::New<FastNoise::Value>(fs); s->SetScale(scale); gen = s;
    } else if (!strcmp(kind, "perlin") || !strcmp(kind, "perlin3d")) {
        auto s = FastNoise::New<FastNoise::Perlin>(fs); s->SetScale(scale); gen = s;
    } else if (!strcmp(kind, "fbm")) {
        auto p = FastNoise::New<FastNoise::Perlin>(fs); p->SetScale(scale);
        auto f = FastNoise::New<FastNoise::FractalFBm>(fs);
        f->SetSource(p); f->SetOctaveCount(6); gen = f;
    } else if (!strncmp(kind, "cellular", 8)) {
        auto c = FastNoise::New<FastNoise::CellularDistance>(fs);
        const float cells = (float)atoi(kind + 8);
        c->SetScale(N / cells); c->SetGridJitter(1.0f); gen = c;
        zscale = N / cells;
    } else {
        fprintf(stderr, "unknown noise %s\n", kind);
        return 2;
    }
    std::vector<float> out(N * N);
    std::vector<double> t;
    for (int r = 0; r < reps; r++) {
        auto a = std::chrono::steady_clock::now();
        if (volume) {
            // z half a cell in, as texgraph's noises with z = 0.5.
            gen->GenUniformGrid3D(out.data(), 0.5f, 0.5f, 0.5f * zscale, N, N, 1, 1.0f, 1.0f, 1.0f, 1337);
        } else {
            gen->GenUniformGrid2D(out.data(), 0.5f, 0.5f, N, N, 1.0f, 1.0f, 1337);
        }
        auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double, std::nano>(b - a).count() / (N * N));
    }
    std::sort(t.begin(), t.end());
    printf("%s %s: %.2f (%.2f) ns/sample  [simd %u]\n", level, kind, t[0], t[t.size() / 2], (unsigned)gen->GetActiveFeatureSet());
}
