#include "runtime/driver.h"

int main(int argc, char** argv) { return dsched::run_main(std::vector<std::string>(argv + 1, argv + argc)); }
