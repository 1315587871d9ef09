import { mount } from "../endpoints/endpoint.ts";
import { search } from "../endpoints/search.ts";
import { stat } from "../endpoints/stat.ts";
import { STATS_ENDPOINTS } from "../endpoints/stats/index.ts";

export const statSearchRoutes = mount([stat, ...STATS_ENDPOINTS, search]);
