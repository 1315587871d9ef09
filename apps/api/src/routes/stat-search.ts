import { mount } from "../endpoints/endpoint.ts";
import { search } from "../endpoints/search.ts";
import { stat } from "../endpoints/stat.ts";

export const statSearchRoutes = mount([stat, search]);
