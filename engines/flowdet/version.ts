// The flow detector's version (--version, GET /health) and the variable naming its data folder: constants that
// `flowdet --help` prints without loading the engine.
export const VERSION = '0.1.0';

/** Environment variable naming the folder that holds `cicids2017/` and `unsw_nb15/`. */
export const DATA_DIR_VARIABLE = 'FLOWDET_DATA';
