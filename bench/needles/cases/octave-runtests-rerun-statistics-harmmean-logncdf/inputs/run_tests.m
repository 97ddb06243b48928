% Run the package's own BIST blocks, as after `pkg load statistics`: inst/ (its PKG_ADD adds the
% sub-folders) and src/ (the compiled .oct files), then runtests on each folder of functions.
root = pwd;
addpath (fullfile (root, "src"));
addpath (fullfile (root, "inst"));
dirs = {"inst", "inst/Classification", "inst/Clustering", "inst/Regression", ...
        "inst/dist_fit", "inst/dist_fun", "inst/dist_obj", "inst/dist_stat", "inst/dist_wrap"};
for i = 1:numel (dirs)
  runtests (fullfile (root, dirs{i}));
endfor
