// The OpenMPI anchor of collectives_bench: MPI_Allreduce (f32 sum, in
// place) of BYTES bytes, ITERATIONS times after a checked warm-up. Each
// iteration's time is the maximum over ranks; rank 0 prints one line
//   MPI_ALLREDUCE_ANCHOR bytes=<B> iterations=<N> ranks=<n>
//       median_us=<..> mean_us=<..>
// (on one line). Run it under mpirun:
//   mpirun -n 2 mpi_allreduce_anchor BYTES ITERATIONS
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3) {
    if (rank == 0)
      std::fprintf(stderr, "usage: %s BYTES ITERATIONS\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  const long long bytes = std::atoll(argv[1]);
  const int iterations = std::max(1, std::atoi(argv[2]));
  const int count = static_cast<int>(std::max(1LL, bytes / 4));
  std::vector<float> data(count, static_cast<float>(rank + 1));

  // Warm-up, checked: the sum of 1..size.
  MPI_Allreduce(MPI_IN_PLACE, data.data(), count, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
  const float expected = size * (size + 1) / 2.0f;
  int wrong = 0;
  for (float v : data) wrong += v != expected;
  int total_wrong = 0;
  MPI_Allreduce(&wrong, &total_wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (total_wrong != 0) {
    if (rank == 0)
      std::fprintf(stderr, "error: MPI_Allreduce gave %d wrong elements\n",
                   total_wrong);
    MPI_Finalize();
    return 1;
  }
  std::fill(data.begin(), data.end(), 0.0f);  // Sums of zeros stay zero.
  MPI_Allreduce(MPI_IN_PLACE, data.data(), count, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);

  std::vector<double> times(iterations), max_times(iterations);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iterations; ++i) {
    const double start = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, data.data(), count, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
    times[i] = MPI_Wtime() - start;
  }
  MPI_Reduce(times.data(), max_times.data(), iterations, MPI_DOUBLE, MPI_MAX, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    double sum = 0;
    for (double t : max_times) sum += t;
    std::sort(max_times.begin(), max_times.end());
    const double median =
        iterations % 2 == 1
            ? max_times[iterations / 2]
            : (max_times[iterations / 2 - 1] + max_times[iterations / 2]) / 2;
    std::printf(
        "MPI_ALLREDUCE_ANCHOR bytes=%lld iterations=%d ranks=%d "
        "median_us=%.3f mean_us=%.3f\n",
        static_cast<long long>(count) * 4, iterations, size, median * 1e6,
        sum / iterations * 1e6);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
